package remote

import (
	"runtime"
	"syscall"
)

// parentDeath makes the command get SIGTERM if the session dies without
// ending it (SIGKILL, the OOM killer): Linux's parent-death signal, which
// follows the thread that started the command, so the caller keeps that
// thread (lockThread) for the session's life.
func parentDeath(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }

func lockThread() { runtime.LockOSThread() }
