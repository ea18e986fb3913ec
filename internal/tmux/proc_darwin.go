package tmux

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// macOS's names and layout for the kinfo_proc reader (proc_kinfo.go).
var (
	osKinfo    = darwinKinfo
	allSysctl  = "kern.proc.all"
	argsSysctl = "kern.procargs2"
	parseArgs  = parseProcArgs2
)

// darwinKinfo's offsets must be golang.org/x/sys/unix's KinfoProc's: each
// line below fails to compile (a negative array length) when one differs.
var kp unix.KinfoProc

const eproc = unsafe.Offsetof(kp.Eproc)

var (
	_ [unsafe.Sizeof(kp) - 648]byte
	_ [648 - unsafe.Sizeof(kp)]byte
	_ [unsafe.Offsetof(kp.Proc.P_pid) - 40]byte
	_ [40 - unsafe.Offsetof(kp.Proc.P_pid)]byte
	_ [unsafe.Offsetof(kp.Proc.P_stat) - 36]byte
	_ [36 - unsafe.Offsetof(kp.Proc.P_stat)]byte
	_ [unsafe.Offsetof(kp.Proc.P_comm) - 243]byte
	_ [243 - unsafe.Offsetof(kp.Proc.P_comm)]byte
	_ [unsafe.Offsetof(kp.Proc.P_starttime)]byte
	_ [eproc + unsafe.Offsetof(kp.Eproc.Ppid) - 560]byte
	_ [560 - eproc - unsafe.Offsetof(kp.Eproc.Ppid)]byte
	_ [eproc + unsafe.Offsetof(kp.Eproc.Pgid) - 564]byte
	_ [564 - eproc - unsafe.Offsetof(kp.Eproc.Pgid)]byte
	_ [eproc + unsafe.Offsetof(kp.Eproc.Tpgid) - 576]byte
	_ [576 - eproc - unsafe.Offsetof(kp.Eproc.Tpgid)]byte
)
