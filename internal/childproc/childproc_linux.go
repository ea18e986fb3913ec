package childproc

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

type startRequest struct {
	cmd  *exec.Cmd
	done chan error
}

// starter is the channel of the goroutine that forks every child, on a
// thread of its own for the life of the process (see the package
// documentation for why).
var starter = sync.OnceValue(func() chan startRequest {
	ch := make(chan startRequest)
	go func() {
		// Never unlocked, and this goroutine never returns: its thread,
		// the parent of every child as the kernel sees it, lives as long
		// as the process.
		runtime.LockOSThread()
		for r := range ch {
			r.done <- r.cmd.Start()
		}
	}()
	return ch
})

func start(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = sig
	done := make(chan error, 1)
	starter() <- startRequest{cmd: cmd, done: done}
	return <-done
}
