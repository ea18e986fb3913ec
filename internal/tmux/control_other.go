//go:build !linux

package tmux

import "context"

// attachNative is the in-process control client, built for Linux only:
// elsewhere the exec'd client serves (fallback).
func (r *Runner) attachNative(context.Context, *controlLock, string, string, string) (*Control, error, bool) {
	return nil, nil, true
}
