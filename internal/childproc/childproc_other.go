//go:build !linux

package childproc

import (
	"os/exec"
	"syscall"
)

func start(cmd *exec.Cmd, _ syscall.Signal) error { return cmd.Start() }
