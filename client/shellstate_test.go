//go:build linux

package client

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
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
	ps := probePrompt(pid, "/dev/null", shellPOSIX, "bash")
	if ps.AtPrompt != No || ps.What != "tmux-child" {
		t.Errorf("probePrompt of tmux's child before exec = %+v, want AtPrompt No, What tmux-child", ps)
	}
}
