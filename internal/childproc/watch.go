package childproc

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// The watch pipe: the way every OS has for a child to learn that its
// parent died, however it died. The parent makes one pipe for its life
// and never writes to it; each child started with [StartWatched] gets the read
// end as an extra descriptor, named in [WatchEnv] with the signal it
// should take. The write end is close-on-exec, so only the parent holds
// it: when the parent dies the kernel closes it, and a read of the pipe
// returns end-of-file in every child. A child that calls [WatchParent]
// then sends itself that signal. On Linux the parent-death signal is a
// second line under it, and covers a child that does not watch.

// WatchEnv names the descriptor and signal of the watch pipe in a child's
// environment: "FD:SIGNAL", such as "3:15".
const WatchEnv = "TMX_PARENT_WATCH"

// watchPipe is the parent's pipe, made on first use; the read end is
// handed to children, the write end kept open for the process's life.
var watchPipe = sync.OnceValues(func() (r *os.File, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	keep = w
	return r, nil
})

// keep holds the write end for the life of the process.
var keep *os.File

// withWatch gives cmd the watch pipe's read end and names it, with sig,
// in cmd's environment. Without a pipe it leaves cmd as it was.
func withWatch(cmd *exec.Cmd, sig syscall.Signal) {
	r, err := watchPipe()
	if err != nil {
		return
	}
	fd := 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(cmd.ExtraFiles, r)
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	kept := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, WatchEnv+"=") {
			kept = append(kept, kv)
		}
	}
	cmd.Env = append(kept, WatchEnv+"="+strconv.Itoa(fd)+":"+strconv.Itoa(int(sig)))
}

// WatchParent, called early by a program started with [Start], watches
// the pipe its parent handed it: when the parent dies it sends itself the
// signal the parent asked for. It removes [WatchEnv] from the environment
// and marks the descriptor close-on-exec, so that nothing the program
// starts (a tmux server) inherits either. It reports whether it watches.
func WatchParent() bool {
	v, ok := os.LookupEnv(WatchEnv)
	if !ok {
		return false
	}
	os.Unsetenv(WatchEnv)
	fdText, sigText, _ := strings.Cut(v, ":")
	fd, err1 := strconv.Atoi(fdText)
	sig, err2 := strconv.Atoi(sigText)
	if err1 != nil || err2 != nil || fd < 3 || sig <= 0 || sig >= 65 {
		return false
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return false // not the pipe: a descriptor reused for something else
	}
	syscall.CloseOnExec(fd)
	// Non-blocking, the read waits in the runtime's poller rather than
	// holding an OS thread for the process's life (every tmx-mcp child
	// has one). The flag is on the pipe shared by all the children, which
	// all read it this way; the parent never reads it.
	syscall.SetNonblock(fd, true)
	f := os.NewFile(uintptr(fd), "parent-watch")
	go func() {
		var b [1]byte
		for {
			if _, err := f.Read(b[:]); err != nil {
				break // end of file: the parent is gone
			}
		}
		syscall.Kill(os.Getpid(), syscall.Signal(sig))
	}()
	return true
}
