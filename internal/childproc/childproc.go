// Package childproc starts child processes whose lives are tied to the
// process that starts them: when it dies, however it dies (SIGKILL
// included), the kernel sends each child a signal, so nothing it started
// runs on as an orphan.
//
// On Linux this is the parent-death signal (prctl(2), PR_SET_PDEATHSIG,
// set through SysProcAttr.Pdeathsig). The kernel sends it when the thread
// that forked the child exits, not the process: a Go program runs
// goroutines on threads it may end (the runtime ends a thread whose
// goroutine exits while locked to it with runtime.LockOSThread), so a
// child forked from an arbitrary goroutine could be signalled while its
// parent still runs. [Start] therefore forks every child from one
// goroutine that locks its thread at its start and never returns: that
// thread ends only with the process. (Locking the caller's thread around
// Start is not enough: once unlocked, the thread may serve a goroutine
// that locks it and exits, and the child dies with it.) The one starting
// goroutine serialises starts; a fork and exec take well under a
// millisecond, so this costs little next to the tmx or tmux run itself.
//
// Go checks after setting the signal that the parent is still the one
// that forked (it sends the signal itself when not), so a parent that dies
// between fork and prctl does not leave the child behind either.
//
// On other systems Start only starts the command.
package childproc

import (
	"os/exec"
	"syscall"
)

// Start starts cmd like cmd.Start, asking the kernel to send the child sig
// when the calling process dies. It keeps whatever cmd.SysProcAttr holds
// already (a process group, for instance).
func Start(cmd *exec.Cmd, sig syscall.Signal) error {
	return start(cmd, sig)
}

// Run starts cmd with [Start] and waits for it, like cmd.Run.
func Run(cmd *exec.Cmd, sig syscall.Signal) error {
	if err := Start(cmd, sig); err != nil {
		return err
	}
	return cmd.Wait()
}
