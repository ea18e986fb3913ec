package tmux

import (
	"encoding/binary"
	"slices"
	"testing"
	"time"
)

// kinfoRecord builds one kinfo_proc record of layout l, as the kernel
// fills it, with the state byte code (the OS's own number).
func kinfoRecord(l kinfoLayout, pid, ppid, pgid, tpgid, sid int, code byte, start time.Time, comm string) []byte {
	b := make([]byte, l.size)
	for i := range b {
		b[i] = 0xa5 // fields not read hold whatever the kernel left
	}
	put := func(off, v int) { binary.NativeEndian.PutUint32(b[off:], uint32(int32(v))) }
	put(l.pid, pid)
	put(l.ppid, ppid)
	put(l.pgid, pgid)
	put(l.tpgid, tpgid)
	if l.sid >= 0 {
		put(l.sid, sid)
	}
	b[l.stat] = code
	binary.NativeEndian.PutUint64(b[l.start:], uint64(start.Unix()))
	if l.usec32 {
		binary.NativeEndian.PutUint32(b[l.start+8:], uint32(start.Nanosecond()/1000))
	} else {
		binary.NativeEndian.PutUint64(b[l.start+8:], uint64(start.Nanosecond()/1000))
	}
	name := make([]byte, l.commLen)
	copy(name, comm)
	copy(b[l.comm:], name)
	return b
}

// The kinfo_proc readers of macOS and FreeBSD read what tmx needs out of
// the kernel's records: the ids, the state as a letter, the name, the
// start, and every record of kern.proc.all's answer.
func TestKinfoParse(t *testing.T) {
	boot := time.Unix(1_700_000_000, 250_000_000)
	start := boot.Add(90*time.Second + 370*time.Millisecond)
	for _, tc := range []struct {
		name  string
		l     kinfoLayout
		sleep byte
		stop  byte
	}{
		{"darwin", darwinKinfo, 3, 4},
		{"freebsd", freebsdKinfo, 3, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shell := kinfoRecord(tc.l, 4100, 4000, 4100, 4200, 4100, tc.sleep, start, "bash")
			job := kinfoRecord(tc.l, 4200, 4100, 4200, 4200, 4100, tc.stop, start.Add(time.Second), "a-name-longer-than-any-comm-field")
			r, ok := tc.l.parse(shell)
			if !ok {
				t.Fatal("a whole record did not parse")
			}
			wantSid := 4100
			if tc.l.sid < 0 {
				wantSid = -1 // the reader asks getsid(2)
			}
			want := Stat{PID: 4100, PPID: 4000, State: 'S', Pgrp: 4100, Session: wantSid, Tpgid: 4200}
			if r.stat != want || r.comm != "bash" || !r.start.Equal(start) {
				t.Errorf("shell record: %+v %q %v, want %+v bash %v", r.stat, r.comm, r.start, want, start)
			}
			if got := ticksSince(r.start, boot); got != 9037 {
				t.Errorf("start ticks = %d, want 9037", got)
			}
			if _, ok := tc.l.parse(shell[:tc.l.size-1]); ok {
				t.Error("a short record parsed")
			}
			all := tc.l.parseAll(append(append([]byte{}, shell...), job...))
			if len(all) != 2 || all[1].stat.State != 'T' || all[1].stat.PID != 4200 || all[1].comm != "a-name-longer-than-any-comm-field"[:tc.l.commLen] {
				t.Errorf("kern.proc.all: %+v", all)
			}
		})
	}
}

func TestParseProcArgs(t *testing.T) {
	// kern.procargs2 (macOS): argc, the executable, padding, argv, env.
	b := binary.NativeEndian.AppendUint32(nil, 3)
	b = append(b, "/bin/bash\x00\x00\x00\x00-bash\x00--noediting\x00-i\x00HOME=/Users/u\x00"...)
	if got, ok := parseProcArgs2(b); !ok || !slices.Equal(got, []string{"-bash", "--noediting", "-i"}) {
		t.Errorf("parseProcArgs2 = %q %v", got, ok)
	}
	if _, ok := parseProcArgs2(b[:20]); ok {
		t.Error("a truncated answer parsed")
	}
	// kern.proc.args (FreeBSD): argv alone.
	if got, ok := parseNULArgs([]byte("sh\x00-c\x00sleep 9\x00")); !ok || !slices.Equal(got, []string{"sh", "-c", "sleep 9"}) {
		t.Errorf("parseNULArgs = %q %v", got, ok)
	}
}
