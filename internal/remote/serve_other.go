//go:build !linux

package remote

import "syscall"

// parentDeath has no equivalent here: a session killed outright leaves its
// command to end on its own.
func parentDeath(*syscall.SysProcAttr) {}

func lockThread() {}
