package cli

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/tmxerr"
)

// argvCase is one row of a command's argv → options table: the words
// after "tmx", the options its run receives, or the error code the parse
// step ends with instead ("" for success; a plain error, such as
// urfave/cli's missing required flag, has no code and is given as
// "plain").
type argvCase[O any] struct {
	argv  string // split on spaces; a word "''" is the empty word
	stdin string
	want  O
	code  tmxerr.Code
}

// parseArgv runs argv through tmx's argument handling (the payload
// separator, flags after arguments, urfave/cli, the action's checks and
// the command's parse step) with the command newCmd builds, whose run is
// replaced by one that records its options: no client, no tmux.
func parseArgv[O any](t *testing.T, newCmd func(*Env, func(*call, *O) error) *cli.Command, stdin string, argv ...string) (*O, error) {
	t.Helper()
	var got *O
	env := &Env{In: strings.NewReader(stdin), Out: io.Discard, Err: io.Discard, Args: append([]string{"tmx"}, argv...)}
	cmd := newCmd(env, func(_ *call, o *O) error { got = o; return nil })
	app := newAppWith(env, []*cli.Command{cmd})
	err := app.RunContext(context.Background(), hoistFlags(app, markPayload(env.Args)))
	if err == nil && got == nil {
		t.Fatalf("tmx %s: the run was not reached", strings.Join(argv, " "))
	}
	return got, err
}

// checkArgv checks a command's argv → options table.
func checkArgv[O any](t *testing.T, newCmd func(*Env, func(*call, *O) error) *cli.Command, cases []argvCase[O]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.argv, func(t *testing.T) {
			var argv []string
			for _, w := range strings.Fields(tc.argv) {
				if w == "''" {
					w = ""
				}
				argv = append(argv, w)
			}
			got, err := parseArgv(t, newCmd, tc.stdin, argv...)
			switch {
			case tc.code == "" && err != nil:
				t.Fatalf("error %v, want options %+v", err, tc.want)
			case tc.code == "":
				if !reflect.DeepEqual(*got, tc.want) {
					t.Fatalf("options\n got  %+v\n want %+v", *got, tc.want)
				}
			case err == nil:
				t.Fatalf("options %+v, want error %s", *got, tc.code)
			case tc.code == "plain":
				if te := (*tmxerr.Error)(nil); errors.As(err, &te) {
					t.Fatalf("error %s %q, want a plain error", te.Code, te.Message)
				}
			default:
				if te := tmxerr.As(err); te == nil || te.Code != tc.code {
					t.Fatalf("error %v, want code %s", err, tc.code)
				}
			}
		})
	}
}
