package client

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

// A new pane's environment may not hand its shell, loader or interpreters
// code: every documented name is refused, with a hint that names the fix,
// and the names that only steer lookups pass.
func TestCheckEnvRefusesNamesThatRunCode(t *testing.T) {
	refused := []string{
		"PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT", "RPROMPT", "RPS1", "SPROMPT", "PROMPT_EOL_MARK",
		"BASH_ENV", "ENV", "ZDOTDIR", "INPUTRC", "BASH_FUNC_ls", "SHELLOPTS", "BASHOPTS",
		"FPATH", "fish_function_path", "fish_complete_path", "HISTFILE",
		"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "GCONV_PATH",
		"PERL5OPT", "PYTHONSTARTUP", "NODE_OPTIONS", "RUBYOPT", "JAVA_TOOL_OPTIONS",
		"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0",
		// Read as code by common startup files and programs, not by the
		// shell itself.
		"debian_chroot", "prompt", "GIT_PS1_STATESEPARATOR", "MAILPATH", "mailpath", "MAIL", "MAILCHECK",
		"VIMINIT", "GVIMINIT", "EXINIT", "LESSOPEN", "LESSCLOSE", "STARSHIP_CONFIG",
	}
	for _, name := range refused {
		err := CheckEnv([]string{name + "=$(touch /tmp/x)"}, false)
		if err == nil {
			t.Errorf("%s passes", name)
			continue
		}
		te := tmxerr.As(err)
		if te.Code != tmxerr.InvalidArgument || !strings.Contains(te.Message, name) || te.Fix == "" {
			t.Errorf("%s: %v (hint %q)", name, err, te.Hint)
		}
		if strings.Contains(te.Message, "touch") || strings.Contains(te.Hint, "touch") {
			t.Errorf("%s: the error repeats the value: %v", name, err)
		}
	}
	for _, name := range []string{"PATH", "HOME", "TERM", "LANG", "XDG_CONFIG_HOME", "PYTHONPATH", "EDITOR", "PS", "PROMPT_DIRTRIM", "MY_PS1", "ld_preload", "GIT_AUTHOR_NAME"} {
		if err := CheckEnv([]string{name + "=x"}, false); err != nil {
			t.Errorf("%s refused: %v", name, err)
		}
	}
	// Every documented name is enforced.
	for _, n := range ExecEnvNames() {
		n = strings.TrimSuffix(n, "*") + map[bool]string{true: "X", false: ""}[strings.HasSuffix(n, "*")]
		if CheckEnv([]string{n + "=1"}, false) == nil {
			t.Errorf("ExecEnvNames lists %s, which CheckEnv lets pass", n)
		}
	}
}
