package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// parseSendBatch reads tmx send --batch's entries: a JSON array of
// {target, keys} on stdin, or under "entries" in the --stdin-args
// document, each entry's keys checked and named as tmux names them.
// Errors: usage (no entries in the document), invalid_argument (not one
// array of entries, or a key tmux has no name for, named by its entry).
func parseSendBatch(x *call) ([]client.KeyOp, error) {
	var text string
	if raw, ok := x.inputRaw("entries"); ok {
		text = string(raw)
	} else if x.stdin != nil {
		return nil, tmxerr.New(tmxerr.Usage, "--stdin-args holds no entries", "").WithFix("batch_entries")
	} else {
		var err error
		x.awaitStdin("the JSON array of entries")
		if text, err = readStdin(x.env.In); err != nil {
			return nil, err
		}
	}
	var ops []client.KeyOp
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	err := dec.Decode(&ops)
	if err == nil && dec.More() {
		err = errors.New("text after the array")
	}
	if err != nil {
		return nil, tmxerr.Errorf(tmxerr.InvalidArgument, "--batch reads a JSON array of {\"target\": ..., \"keys\": [...]}: %v", err).
			WithHint(`e.g. [{"target":"%%3","keys":["C-c"]},{"target":"%%4","keys":["Up","Enter"]}]`)
	}
	for i := range ops {
		if err := normalizeKeys(ops[i].Keys); err != nil {
			te := tmxerr.As(err)
			te.Message = fmt.Sprintf("entry %d: %s", i+1, te.Message)
			return nil, te
		}
	}
	return ops, nil
}

// runSendBatch sends ops in one tmux call (client.SendKeysBatch): nothing
// is sent if one entry is refused.
func runSendBatch(x *call, ops []client.KeyOp, confirmSelf bool) error {
	cl, snap, err := x.snapshot()
	if err != nil {
		return err
	}
	res, err := cl.SendKeysBatch(x.ctx(), snap, ops, confirmSelf)
	if err != nil {
		return err
	}
	doc := result.KeyBatch{}
	for _, r := range res {
		doc.Operations = append(doc.Operations, *r)
	}
	return x.emit(doc, func(io.Writer) {})
}
