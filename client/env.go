package client

import (
	"strings"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// historyEnv is what suppress-persistent-history puts in a new pane's
// environment: bash and zsh write no history file (HISTFILE=/dev/null,
// SAVEHIST=0 for zsh) and fish keeps no history (fish_history set empty).
// A shell's startup files can set these again: it is best effort.
var historyEnv = []string{"HISTFILE=/dev/null", "SAVEHIST=0", "fish_history="}

// maxEnvName bounds an environment variable's name, in bytes, as tmx-mcp's
// input schema does.
const maxEnvName = 256

// CheckEnv checks KEY=VALUE entries for a new pane's environment (tmux -e):
// names are letters, digits and _, not starting with a digit, at most
// maxEnvName bytes, and none that runs code (see execEnv: PROMPT_COMMAND,
// PS1, BASH_ENV, LD_PRELOAD, ...); values hold no NUL and at most MaxName
// bytes. With suppress, an entry that sets one of the variables history
// suppression sets is refused. Errors are invalid_argument and name the
// variable, never its value.
func CheckEnv(env []string, suppress bool) error {
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || name[0] >= '0' && name[0] <= '9' || !tmux.OnlyBytes(name, "_") {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "environment entry %q is not NAME=VALUE with a valid name", clip(name)).
				WithHint("names are letters, digits and _, not starting with a digit")
		}
		if len(name) > maxEnvName {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "environment name %s is %d bytes; at most %d", clip(name), len(name), maxEnvName)
		}
		if err := checkExecEnv(name); err != nil {
			return err
		}
		if strings.IndexByte(value, 0) >= 0 {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "the value of %s contains a NUL byte", name)
		}
		if len(value) > MaxName {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "the value of %s is %d bytes; at most %d", name, len(value), MaxName)
		}
		if suppress {
			for _, h := range historyEnv {
				if strings.HasPrefix(h, name+"=") {
					return tmxerr.Errorf(tmxerr.InvalidArgument, "the environment sets %s, which history suppression sets too", name).
						WithHint("drop %s from the environment, or do not ask for history suppression", name)
				}
			}
		}
	}
	return nil
}

// envArgs returns -e flags for a new pane's environment, history
// suppression first.
func envArgs(env []string, suppress bool) []string {
	var args []string
	if suppress {
		for _, h := range historyEnv {
			args = append(args, "-e", h)
		}
	}
	for _, kv := range env {
		args = append(args, "-e", Arg(kv)) // -e is not format-expanded
	}
	return args
}
