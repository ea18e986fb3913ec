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
// On every system, Linux included, a child started with [StartWatched]
// also gets the read end of a pipe only the parent can write to (see
// watch.go): calling [WatchParent], it signals itself when the pipe
// reports end-of-file, which is when the parent died. tmx-mcp starts its
// tmx children so and tmx watches first thing, so they die with tmx-mcp
// on macOS and the BSDs too.
package childproc

import (
	"os/exec"
	"syscall"
)

// Start starts cmd like cmd.Start, asking the kernel to send the child sig
// when the calling process dies (Linux only; see [StartWatched] for
// every OS). It keeps whatever cmd.SysProcAttr holds
// already (a process group, for instance).
func Start(cmd *exec.Cmd, sig syscall.Signal) error {
	return start(cmd, sig)
}

// StartWatched is [Start] for a child that calls [WatchParent] (tmx
// itself): it also hands the child the watch pipe, with sig. Only such a
// child may get it: the descriptor and [WatchEnv] would otherwise pass on
// to whatever the child starts.
func StartWatched(cmd *exec.Cmd, sig syscall.Signal) error {
	withWatch(cmd, sig)
	return start(cmd, sig)
}

// Run starts cmd with [Start] and waits for it, like cmd.Run.
func Run(cmd *exec.Cmd, sig syscall.Signal) error {
	if err := Start(cmd, sig); err != nil {
		return err
	}
	return cmd.Wait()
}
