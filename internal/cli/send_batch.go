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

// sendBatch is tmx send --batch: a JSON array of {target, keys} on stdin,
// or under "entries" in the --stdin-args document.
func sendBatch(x *call) error {
	var text string
	if raw, ok := x.inputRaw("entries"); ok {
		text = string(raw)
	} else if x.stdin != nil {
		return tmxerr.New(tmxerr.Usage, "--stdin-args holds no entries", `give {"entries": [{"target": ..., "keys": [...]}]}`)
	} else {
		var err error
		x.awaitStdin("the JSON array of entries")
		if text, err = readStdin(x.env.In); err != nil {
			return err
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
		return tmxerr.Errorf(tmxerr.InvalidArgument, "--batch reads a JSON array of {\"target\": ..., \"keys\": [...]}: %v", err).
			WithHint(`e.g. [{"target":"%%3","keys":["C-c"]},{"target":"%%4","keys":["Up","Enter"]}]`)
	}
	for i := range ops {
		if err := normalizeKeys(ops[i].Keys); err != nil {
			te := tmxerr.As(err)
			te.Message = fmt.Sprintf("entry %d: %s", i+1, te.Message)
			return te
		}
	}
	cl, snap, err := x.snapshot()
	if err != nil {
		return err
	}
	res, err := cl.SendKeysBatch(x.ctx(), snap, ops, x.Bool("confirm-self"))
	if err != nil {
		return err
	}
	doc := result.KeyBatch{}
	for _, r := range res {
		doc.Operations = append(doc.Operations, *r)
	}
	return x.emit(doc, func(io.Writer) {})
}
