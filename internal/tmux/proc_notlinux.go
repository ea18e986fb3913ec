//go:build !linux

package tmux

// What only Linux's /proc shows, answered "cannot tell" elsewhere (see
// proc_linux.go for each).

// ReadStatus is not OK where there is no Linux /proc.
func ReadStatus(int) Status { return Status{} }

// ReadSyscall cannot tell where there is no Linux /proc.
func ReadSyscall(int) (Syscall, bool) { return Syscall{}, false }

// SyscallReadable is false where there is no Linux /proc.
func SyscallReadable(int) bool { return false }

// FDTarget is unknown where there is no Linux /proc.
func FDTarget(int, uint64) string { return "" }

// FDs is unknown where there is no Linux /proc.
func FDs(int) []uint64 { return nil }

// SelfWakeup is false where there is no Linux /proc.
func SelfWakeup(int, uint64) bool { return false }

// ReadChars cannot tell where there is no Linux /proc.
func ReadChars(int) (int64, bool) { return 0, false }

// EpollTargets cannot tell where there is no Linux /proc.
func EpollTargets(int, uint64) ([]uint64, bool) { return nil, false }

// FindServers finds nothing where there is no Linux /proc.
func FindServers(string) []int { return nil }

// Servers finds nothing where there is no Linux /proc.
func Servers() []ServerProcess { return nil }

// Threads is unknown where there is no Linux /proc.
func Threads(int) []int { return nil }

// ThreadStatus cannot tell where there is no Linux /proc.
func ThreadStatus(int, int) (Status, bool) { return Status{}, false }

// ThreadSyscall cannot tell where there is no Linux /proc.
func ThreadSyscall(int, int) (string, bool) { return "", false }

// ExeID is unknown where there is no Linux /proc.
func ExeID(int) string { return "" }
