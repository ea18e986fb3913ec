//go:build darwin || (freebsd && (amd64 || arm64))

package tmux

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// The reader of the OS's process records on macOS and FreeBSD: sysctl
// kern.proc.* (struct kinfo_proc, parsed in kinfo.go) and getsid(2).

// procs is the kinfo_proc reader of this OS.
var procs procReader = kinfoProcs{}

type kinfoProcs struct{}

// boot is when the system booted (kern.boottime).
func boot() (time.Time, bool) {
	tv, err := unix.SysctlTimeval("kern.boottime")
	if err != nil || tv.Sec == 0 {
		return time.Time{}, false
	}
	return time.Unix(int64(tv.Sec), int64(tv.Usec)*1000), true
}

// finish fills in what a record leaves out: the session (getsid(2) where
// the record has none) and the start in hundredths after boot.
func finish(r kinfoRec) Stat {
	st := r.stat
	if st.Session < 0 {
		st.Session = 0
		if sid, err := unix.Getsid(st.PID); err == nil {
			st.Session = sid
		}
	}
	if b, ok := boot(); ok {
		st.StartTicks = ticksSince(r.start, b)
	}
	return st
}

func (kinfoProcs) record(pid int) (kinfoRec, bool) {
	if pid <= 0 {
		return kinfoRec{}, false
	}
	b, err := unix.SysctlRaw("kern.proc.pid", pid)
	if err != nil {
		return kinfoRec{}, false
	}
	r, ok := osKinfo.parse(b)
	return r, ok && r.stat.PID == pid
}

func (k kinfoProcs) stat(pid int) (Stat, bool) {
	r, ok := k.record(pid)
	if !ok {
		return Stat{}, false
	}
	return finish(r), true
}

func (k kinfoProcs) comm(pid int) string {
	r, _ := k.record(pid)
	return r.comm
}

func (kinfoProcs) args(pid int) ([]string, bool) {
	if pid <= 0 {
		return nil, false
	}
	b, err := unix.SysctlRaw(argsSysctl, pid)
	if err != nil {
		return nil, false
	}
	return parseArgs(b)
}

func (kinfoProcs) all() []Stat {
	b, err := unix.SysctlRaw(allSysctl)
	if err != nil {
		return nil
	}
	recs := osKinfo.parseAll(b)
	out := make([]Stat, 0, len(recs))
	for _, r := range recs {
		out = append(out, finish(r))
	}
	return out
}

func (k kinfoProcs) children(pid int) []int {
	b, err := unix.SysctlRaw(allSysctl)
	if err != nil {
		return nil
	}
	var out []int
	for _, r := range osKinfo.parseAll(b) {
		if r.stat.PPID == pid {
			out = append(out, r.stat.PID)
		}
	}
	return out
}

func (kinfoProcs) uptime() (time.Duration, bool) {
	b, ok := boot()
	if !ok {
		return 0, false
	}
	return time.Since(b), true
}

// BootID names this boot of the system by when it booted
// (kern.boottime), "" when unknown.
func BootID() string {
	b, ok := boot()
	if !ok {
		return ""
	}
	return fmt.Sprintf("boottime:%d.%06d", b.Unix(), b.Nanosecond()/1000)
}
