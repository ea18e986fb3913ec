//go:build freebsd && (amd64 || arm64)

package tmux

// FreeBSD's names and layout for the kinfo_proc reader (proc_kinfo.go).
var (
	osKinfo    = freebsdKinfo
	allSysctl  = "kern.proc.proc"
	argsSysctl = "kern.proc.args"
	parseArgs  = parseNULArgs
)
