package client

import (
	"strings"

	"github.com/tmx-sh/tmx/tmxerr"
)

// An environment given to a new pane must not hand its programs code: a
// spawn tool starts a configured program (the default shell, or the
// pane's own command), and a variable that the shell, the dynamic loader
// or a common interpreter runs as code, or reads code from, would make it
// run caller-written code instead. [CheckEnv] refuses these names.
//
// A name is refused when its purpose is to carry code or to locate code
// that runs without anyone typing a command: prompts (expanded, command
// substitutions included, at every prompt), startup files and hooks,
// function and module paths, shell options, the loader's preload and
// library variables, interpreter start-up options, and git configuration
// (shell prompts commonly run git, and configuration can name commands
// git runs, core.fsmonitor among them). HISTFILE is refused too: the shell
// appends every typed line to the file it names, so pointed at a startup
// file, lines typed later would run in every new shell.
//
// Names with other purposes that also steer lookups stay allowed: PATH,
// HOME, XDG_CONFIG_HOME, PYTHONPATH, EDITOR, PAGER. They choose among
// programs and files already installed, or name a program run only when
// someone asks for it; they carry no code. The capability rows say so.
var execEnv = []struct {
	names    []string // exact names
	prefixes []string // names starting with one of these
	why      string   // completes "NAME is refused: "
}{
	{names: []string{"PROMPT_COMMAND"}, why: "bash runs its value as a command before every prompt"},
	{names: []string{"PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT", "PROMPT2", "PROMPT3", "PROMPT4", "RPROMPT", "RPROMPT2", "RPS1", "RPS2", "SPROMPT", "PROMPT_EOL_MARK"},
		why: "shells expand prompts, command substitutions included, every time they show one"},
	{names: []string{"BASH_ENV", "ENV", "ZDOTDIR", "INPUTRC"},
		why: "it names a file (or, for ZDOTDIR, the directory of files) the shell reads commands or key bindings from when it starts"},
	{prefixes: []string{"BASH_FUNC_"}, why: "bash imports it as a shell function"},
	{names: []string{"SHELLOPTS", "BASHOPTS"}, why: "bash turns on the options it lists when it starts, before your startup files run"},
	{names: []string{"FPATH", "fish_function_path", "fish_complete_path", "BASH_LOADABLES_PATH", "MODULE_PATH"},
		why: "it names where the shell loads functions or modules from"},
	{names: []string{"HISTFILE"}, why: "the shell appends every typed line to the file it names, which could be a startup file"},
	{names: []string{"GCONV_PATH"}, prefixes: []string{"LD_", "DYLD_"},
		why: "the dynamic loader (or iconv) loads code it names into every program the pane starts"},
	{names: []string{"PERL5OPT", "PERL5DB", "PYTHONSTARTUP", "NODE_OPTIONS", "RUBYOPT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"},
		why: "an interpreter runs code it names when it starts"},
	{prefixes: []string{"GIT_CONFIG"}, why: "git reads configuration from it, and configuration can name commands git runs, in shell prompts too"},
	{names: []string{"debian_chroot", "prompt"}, prefixes: []string{"GIT_PS1_"},
		why: "startup files put it into the prompt (Debian's and Ubuntu's bashrc: debian_chroot; zsh: prompt is PS1; git's __git_ps1: GIT_PS1_*), which the shell expands, command substitutions included"},
	{names: []string{"MAILPATH", "mailpath", "MAIL", "MAILCHECK"},
		why: "bash and zsh check the mail files it names before a prompt and expand the message given with them, command substitutions included"},
	{names: []string{"VIMINIT", "GVIMINIT", "EXINIT", "LESSOPEN", "LESSCLOSE", "STARSHIP_CONFIG"},
		why: "a program runs its value as commands when it starts or opens a file (vim, vi, less), or reads commands from the file it names (starship)"},
}

// ExecEnvNames lists the environment names [CheckEnv] refuses because
// they run code: exact names, then prefixes written NAME*.
func ExecEnvNames() []string {
	var names, prefixes []string
	for _, g := range execEnv {
		names = append(names, g.names...)
		for _, p := range g.prefixes {
			prefixes = append(prefixes, p+"*")
		}
	}
	return append(names, prefixes...)
}

// checkExecEnv refuses name when it is one of execEnv's. The hint names
// the fix: leave it out, and set it from a command in the pane, which the
// caller then runs knowingly (and a capability row calls pane-command).
func checkExecEnv(name string) error {
	for _, g := range execEnv {
		hit := false
		for _, n := range g.names {
			hit = hit || name == n
		}
		for _, p := range g.prefixes {
			hit = hit || strings.HasPrefix(name, p)
		}
		if !hit {
			continue
		}
		err := tmxerr.Errorf(tmxerr.InvalidArgument, "the environment may not set %s: %s", name, g.why)
		if name == "HISTFILE" {
			return err.WithFix("no_histfile")
		}
		return err.WithFix("export_in_pane", "name", name)
	}
	return nil
}
