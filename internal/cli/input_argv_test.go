package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/tmxerr"
)

// The argv tables of send, type and paste: their parse steps, without
// tmux.

func TestParseSend(t *testing.T) {
	checkArgv(t, newSendCmd, []argvCase[sendOptions]{
		{argv: "send %3 C-c", want: sendOptions{Target: "%3", Keys: []string{"C-c"}}},
		{argv: "send work Up Enter", want: sendOptions{Target: "work", Keys: []string{"Up", "Enter"}}},
		{argv: "send %3 S-Tab", want: sendOptions{Target: "%3", Keys: []string{"BTab"}}},
		{argv: "send --confirm-self --exit-mode %3 q", want: sendOptions{Target: "%3", Keys: []string{"q"}, Input: inputFlags{ConfirmSelf: true, ExitMode: true}}},
		{argv: "send --stdin %3", stdin: "Up\r\n\nEnter\n", want: sendOptions{Target: "%3", Keys: []string{"Up", "Enter"}, Stdin: true}},
		{argv: "send --stdin-args %3", stdin: `{"keys": ["C-c"], "wait-text": "$"}`, want: sendOptions{Target: "%3", Keys: []string{"C-c"}, Wait: inputWaitOptions{Text: "$"}}},
		{argv: "send --wait-regex ^ok$ --stop panic: --timeout 9 %3 Enter", want: sendOptions{Target: "%3", Keys: []string{"Enter"}, Wait: inputWaitOptions{Regex: "^ok$", Stop: []string{"panic:"}, Timeout: 9}}},
		{argv: "send --wait-quiet 300 --wait-input %3 Enter", want: sendOptions{Target: "%3", Keys: []string{"Enter"}, Wait: inputWaitOptions{Moments: momentOptions{QuietMS: 300, Input: true}, QuietSet: true}}},
		{argv: "send --batch", stdin: `[{"target":"%3","keys":["C-c","s-tab"]}]`, want: sendOptions{Batch: true, Entries: []client.KeyOp{{Target: "%3", Keys: []string{"C-c", "BTab"}}}}},
		{argv: "send --batch --stdin-args", stdin: `{"entries": [{"target":"%4","keys":["Up"]}]}`, want: sendOptions{Batch: true, Entries: []client.KeyOp{{Target: "%4", Keys: []string{"Up"}}}}},
		{argv: "send %3", code: tmxerr.Usage},
		{argv: "send", code: tmxerr.Usage},
		{argv: "send %3 ctrl-c", code: tmxerr.InvalidArgument},
		{argv: "send --stdin %3 Enter", stdin: "Up\n", code: tmxerr.Usage},
		{argv: "send --stdin-args %3 Enter", stdin: `{"keys": ["Up"]}`, code: tmxerr.Usage},
		{argv: "send --stdin-args %3", stdin: `{"entries": []}`, code: tmxerr.Usage},
		{argv: "send --batch %3", stdin: `[]`, code: tmxerr.Usage},
		{argv: "send --batch --wait-text x", stdin: `[]`, code: tmxerr.Usage},
		{argv: "send --batch --timeout 5", stdin: `[]`, code: tmxerr.Usage},
		{argv: "send --batch --exit-mode", stdin: `[]`, code: tmxerr.Usage},
		{argv: "send --batch", stdin: `{"target":"%3"}`, code: tmxerr.InvalidArgument},
		{argv: "send --batch", stdin: `[{"target":"%3","keys":["Enterr"]}]`, code: tmxerr.InvalidArgument},
		{argv: "send --timeout 5 %3 Enter", code: tmxerr.Usage},
		{argv: "send --stop x %3 Enter", code: tmxerr.Usage},
		{argv: "send --wait-text a --wait-regex b %3 Enter", code: tmxerr.Usage},
		{argv: "send --wait-regex ( %3 Enter", code: tmxerr.InvalidArgument},
		{argv: "send --wait-quiet 0 %3 Enter", code: tmxerr.Usage},
		// The target is named first, as it would be by the server.
		{argv: "send --timeout 5 %x Enter", code: tmxerr.InvalidTarget},
		{argv: "send %x Enterr", code: tmxerr.InvalidTarget},
	})
}

func TestParseType(t *testing.T) {
	checkArgv(t, newTypeCmd, []argvCase[typeOptions]{
		{argv: "type %3 -- git status", want: typeOptions{Target: "%3", Text: "git status"}},
		{argv: "type --enter py -- 6*7", want: typeOptions{Target: "py", Text: "6*7", Enter: true}},
		{argv: "type %3 -- Enter -x ;", want: typeOptions{Target: "%3", Text: "Enter -x ;"}},
		{argv: "type --stdin %3", stdin: "hello\n", want: typeOptions{Target: "%3", Text: "hello", Stdin: true}},
		{argv: "type --stdin-args %3", stdin: `{"text": "hi", "stop": ["x"], "wait-text": "ok"}`, want: typeOptions{Target: "%3", Text: "hi", Wait: inputWaitOptions{Text: "ok", Stop: []string{"x"}}}},
		{argv: "type --enter --wait-exit --confirm-self %3 -- make", want: typeOptions{Target: "%3", Text: "make", Enter: true, Input: inputFlags{ConfirmSelf: true}, Wait: inputWaitOptions{Moments: momentOptions{Exit: true}}}},
		{argv: "type %3", code: tmxerr.Usage},
		{argv: "type -- hello", code: tmxerr.Usage},
		{argv: "type a b -- hello", code: tmxerr.Usage},
		{argv: "type --stdin-args %3 -- hello", stdin: `{"text": "hi"}`, code: tmxerr.Usage},
		{argv: "type --stdin %3", stdin: "two\nlines\n", code: tmxerr.InvalidArgument},
		{argv: "type --wait-regex ( %3 -- x", code: tmxerr.InvalidArgument},
		{argv: "type --timeout 3 %3 -- x", code: tmxerr.Usage},
		{argv: "type --timeout 3 %x -- x", code: tmxerr.InvalidTarget},
	})
}

func TestParsePaste(t *testing.T) {
	checkArgv(t, newPasteCmd, []argvCase[pasteOptions]{
		{argv: "paste %3", stdin: "line one\nline two\n", want: pasteOptions{Target: "%3", Text: "line one\nline two\n"}},
		{argv: "paste --no-bracket --enter --exit-mode py", stdin: "f(21)\n", want: pasteOptions{Target: "py", Text: "f(21)\n", NoBracket: true, Enter: true, Input: inputFlags{ExitMode: true}}},
		{argv: "paste --wait-regex ^>>>$ py", stdin: "1\n", want: pasteOptions{Target: "py", Text: "1\n", Wait: inputWaitOptions{Regex: "^>>>$"}}},
		{argv: "paste --stdin-args %3", stdin: `{"text": "a\nb"}`, want: pasteOptions{Target: "%3", Text: "a\nb"}},
		{argv: "paste", stdin: "x", code: tmxerr.Usage},
		{argv: "paste a b", stdin: "x", code: tmxerr.Usage},
		{argv: "paste --stdin-args %3", stdin: `{"wait-text": "x"}`, code: tmxerr.Usage},
		{argv: "paste %3", stdin: "\x1b[31m", code: tmxerr.InvalidArgument},
		{argv: "paste --stop x %3", stdin: "x", code: tmxerr.Usage},
		{argv: "paste --stop x %x", stdin: "\x1b", code: tmxerr.InvalidTarget},
	})
}
