//go:build linux

package client

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// Just after new-session, the pane's process is tmux's child that has not
// executed the pane's program yet: its comm is tmux's, and it may have no
// controlling terminal, so no foreground group. It is not a shell at its
// prompt, however its stat reads. Here a process named tmux-child in a
// session of its own (setsid: no controlling terminal) stands in for it.
func TestProbePromptBeforeExec(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	link := filepath.Join(t.TempDir(), "tmux-child")
	if err := os.Symlink(sleep, link); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(link, "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pid := cmd.Process.Pid
	// Wait until the child has executed (its comm is the link's name).
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "comm")); string(b) == "tmux-child\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stand-in did not start")
		}
	}
	ps := probePrompt(pid, "/dev/null", shellPOSIX, "bash", nil)
	if ps.AtPrompt != No || ps.What != "tmux-child" {
		t.Errorf("probePrompt of tmux's child before exec = %+v, want AtPrompt No, What tmux-child", ps)
	}
}

// A shell whose line editor is off reads as Unknown at its prompt, and so
// does a shell that has only just started, for moments, before it starts
// its editor. For a young shell, promptWatch takes Unknown only once the
// shell has slept that way for unknownSettle; an older shell's Unknown
// stands at once.
//
// With /proc/<pid>/syscall, tmx sees where the shell waits, and bash
// started with --noediting reads its prompt as a shell without a line
// editor does: Yes.
func TestPromptWatchSteadyUnknown(t *testing.T) {
	tmuxBin, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux")
	}
	if testing.Short() {
		t.Skip("starts tmux")
	}
	var b [6]byte
	rand.Read(b[:])
	sock := "tmx-test-" + hex.EncodeToString(b[:])
	// A socket directory of the test's own, whatever TMUX_TMPDIR says.
	env := append(os.Environ(), "TMUX_TMPDIR="+t.TempDir())
	tmuxCmd := func(args ...string) *exec.Cmd {
		cmd := exec.Command(tmuxBin, append([]string{"-L", sock}, args...)...)
		cmd.Env = env
		return cmd
	}
	t.Cleanup(func() { tmuxCmd("kill-server").Run() })
	out, err := tmuxCmd("-f", "/dev/null", "new-session", "-d", "-P", "-F", "#{pane_pid} #{pane_tty}",
		"env", "PS1=P$ ", "bash", "--norc", "--noprofile", "--noediting", "-i").Output()
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(out))
	pid, _ := strconv.Atoi(f[0])
	p := PaneInfo{PaneFields: PaneFields{PanePID: pid, PaneTTY: f[1]}}
	// Where /proc/<pid>/syscall cannot be read, only the terminal's mode
	// says anything.
	blind := func(int) (tmux.Syscall, bool) { return tmux.Syscall{}, false }
	readSyscall = blind
	t.Cleanup(func() { readSyscall = tmux.ReadSyscall })
	// Wait for its prompt: asleep on its canonical terminal.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if tmux.Comm(pid) == "bash" && probePrompt(pid, p.PaneTTY, shellPOSIX, "bash", nil).AtPrompt == Unknown {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("bash --noediting did not reach its prompt")
		}
	}
	if _, ok := tmux.ReadSyscall(pid); ok {
		readSyscall = tmux.ReadSyscall
		if ps := probePrompt(pid, p.PaneTTY, shellPOSIX, "bash", nil); ps.AtPrompt != Yes || ps.SP == 0 {
			t.Errorf("bash --noediting at its prompt, its system call seen: %+v, want Yes with its stack pointer", ps)
		}
		readSyscall = blind
	}
	w := newPromptWatch(p, shellPOSIX, "bash", nil)
	if !w.young {
		t.Fatal("a shell started a moment ago is not young")
	}
	began := time.Now()
	if ps := w.probe(); ps.AtPrompt != No || ps.What != "bash" {
		t.Errorf("first probe of a young shell's Unknown = %+v, want No (not yet steady)", ps)
	}
	for w.probe().AtPrompt != Unknown {
		if time.Since(began) > 5*time.Second {
			t.Fatal("a steady Unknown was never taken")
		}
		time.Sleep(time.Millisecond)
	}
	if d := time.Since(began); d < unknownSettle {
		t.Errorf("Unknown taken after %v, before unknownSettle (%v)", d, unknownSettle)
	}
	w.young = false
	if ps := w.probe(); ps.AtPrompt != Unknown {
		t.Errorf("an older shell's Unknown = %+v, want Unknown at once", ps)
	}
}
