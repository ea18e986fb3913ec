//go:build !linux && !darwin && !(freebsd && (amd64 || arm64))

package tmux

import "time"

// Where tmx has no reader of the OS's process records (OpenBSD, NetBSD,
// DragonFly, 32-bit FreeBSD): every record is unknown, and callers rely
// on the terminal and tmux's formats alone.

var procs procReader = noProcs{}

type noProcs struct{}

func (noProcs) stat(int) (Stat, bool)         { return Stat{}, false }
func (noProcs) comm(int) string               { return "" }
func (noProcs) args(int) ([]string, bool)     { return nil, false }
func (noProcs) all() []Stat                   { return nil }
func (noProcs) children(int) []int            { return nil }
func (noProcs) uptime() (time.Duration, bool) { return 0, false }

// BootID is unknown here.
func BootID() string { return "" }
