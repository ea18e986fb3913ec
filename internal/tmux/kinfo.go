package tmux

import (
	"bytes"
	"encoding/binary"
	"strings"
	"time"
)

// The BSD kernels' process records: struct kinfo_proc as sysctl
// kern.proc.* returns it (sysctl(3)), one fixed-size record a process, in
// the machine's byte order. Where each field sits is a [kinfoLayout]; the
// parsing is here, free of build tags, so that it is tested on every OS
// over recorded records (kinfo_test.go), and the readers that ask the
// kernel (proc_kinfo.go) are thin.

// kinfoLayout is where struct kinfo_proc keeps what [Stat] needs, as byte
// offsets into one record.
type kinfoLayout struct {
	// size is the size of one record; on FreeBSD the record's first int32
	// (ki_structsize) says it too.
	size int
	// pid, ppid, pgid, tpgid: int32 fields. sid is the session's int32,
	// or -1 where the record has none (macOS: the session is a kernel
	// pointer, and getsid(2) says).
	pid, ppid, pgid, tpgid, sid int
	// start is the start time, a struct timeval: seconds as an int64, then
	// microseconds as an int32 (usec32, macOS) or an int64.
	start  int
	usec32 bool
	// stat is the state byte, comm the NUL-padded name of commLen bytes.
	stat, comm, commLen int
	// states turns the state byte into [Stat]'s letters.
	states map[byte]byte
}

// darwinKinfo is macOS's struct kinfo_proc on amd64 and arm64 (the same
// there; golang.org/x/sys/unix's KinfoProc, which proc_darwin.go checks
// it against when it compiles): kp_proc (struct extern_proc) then
// kp_eproc. States from sys/proc.h: SIDL 1, SRUN 2, SSLEEP 3, SSTOP 4,
// SZOMB 5.
var darwinKinfo = kinfoLayout{
	size: 648,
	pid:  40, ppid: 560, pgid: 564, tpgid: 576, sid: -1,
	start: 0, usec32: true,
	stat: 36, comm: 243, commLen: 17,
	states: map[byte]byte{1: 'R', 2: 'R', 3: 'S', 4: 'T', 5: 'Z'},
}

// freebsdKinfo is FreeBSD's struct kinfo_proc (sys/user.h) on 64-bit
// machines (KINFO_PROC_SIZE 1088 on amd64 and arm64). States from
// sys/proc.h: SIDL 1, SRUN 2, SSLEEP 3, SSTOP 4, SZOMB 5, SWAIT 6 (an
// interrupt thread), SLOCK 7 (blocked on a lock).
var freebsdKinfo = kinfoLayout{
	size: 1088,
	pid:  72, ppid: 76, pgid: 80, tpgid: 84, sid: 88,
	start: 336,
	stat:  388, comm: 447, commLen: 20,
	states: map[byte]byte{1: 'R', 2: 'R', 3: 'S', 4: 'T', 5: 'Z', 6: 'S', 7: 'S'},
}

// kinfoRec is one parsed record: the [Stat] (Session -1 when the record
// has none; StartTicks not yet set), its name, and when it started.
type kinfoRec struct {
	stat  Stat
	comm  string
	start time.Time
}

// parse reads one record from the start of b; ok false when b is too
// short.
func (l kinfoLayout) parse(b []byte) (kinfoRec, bool) {
	if len(b) < l.size {
		return kinfoRec{}, false
	}
	i32 := func(off int) int { return int(int32(binary.NativeEndian.Uint32(b[off:]))) }
	st := Stat{PID: i32(l.pid), PPID: i32(l.ppid), Pgrp: i32(l.pgid), Tpgid: i32(l.tpgid), Session: -1}
	if l.sid >= 0 {
		st.Session = i32(l.sid)
	}
	st.State = l.states[b[l.stat]]
	if st.State == 0 {
		st.State = '?'
	}
	sec := int64(binary.NativeEndian.Uint64(b[l.start:]))
	var usec int64
	if l.usec32 {
		usec = int64(int32(binary.NativeEndian.Uint32(b[l.start+8:])))
	} else {
		usec = int64(binary.NativeEndian.Uint64(b[l.start+8:]))
	}
	name := b[l.comm : l.comm+l.commLen]
	if n := bytes.IndexByte(name, 0); n >= 0 {
		name = name[:n]
	}
	var start time.Time
	if sec > 0 {
		start = time.Unix(sec, usec*1000)
	}
	return kinfoRec{stat: st, comm: string(name), start: start}, true
}

// parseAll reads the records that fill b (kern.proc.all's answer).
func (l kinfoLayout) parseAll(b []byte) []kinfoRec {
	var out []kinfoRec
	for len(b) >= l.size {
		if r, ok := l.parse(b); ok && r.stat.PID > 0 {
			out = append(out, r)
		}
		b = b[l.size:]
	}
	return out
}

// ticksSince turns a start time into [Stat.StartTicks]: hundredths of a
// second after boot, at least 1 for a known start (0 means unknown).
func ticksSince(start, boot time.Time) int64 {
	if start.IsZero() || boot.IsZero() {
		return 0
	}
	return max(int64(start.Sub(boot)/(10*time.Millisecond)), 1)
}

// parseProcArgs2 reads macOS's kern.procargs2 answer: argc as an int32,
// the executable's path, NUL padding, then argc NUL-terminated arguments
// (and the environment, which is not read).
func parseProcArgs2(b []byte) ([]string, bool) {
	if len(b) < 4 {
		return nil, false
	}
	argc := int(int32(binary.NativeEndian.Uint32(b)))
	b = b[4:]
	n := bytes.IndexByte(b, 0)
	if n < 0 || argc <= 0 {
		return nil, false
	}
	b = b[n:]
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	args := make([]string, 0, argc)
	for len(args) < argc {
		n := bytes.IndexByte(b, 0)
		if n < 0 {
			return nil, false
		}
		args = append(args, string(b[:n]))
		b = b[n+1:]
	}
	return args, true
}

// parseNULArgs reads FreeBSD's kern.proc.args answer: the arguments,
// each NUL-terminated.
func parseNULArgs(b []byte) ([]string, bool) {
	if len(b) == 0 {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00"), true
}
