package childproc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// parentChildren is how many children the parent under test starts.
const parentChildren = 8

// TestMain lets the test binary be the parent under test
// (CHILDPROC_TEST_PARENT=1): it starts parentChildren "sleep 60" through
// Start, each from a goroutine that locks its thread and exits without
// unlocking it, which makes the runtime end that thread (unless it is the
// main thread), prints the children's pids on one line, and waits to be
// killed.
func TestMain(m *testing.M) {
	if os.Getenv("CHILDPROC_TEST_CHILD") == "1" {
		// A child that watches the pipe and otherwise sleeps.
		if !WatchParent() {
			fmt.Println("no watch pipe")
			os.Exit(1)
		}
		if _, ok := os.LookupEnv(WatchEnv); ok {
			fmt.Println(WatchEnv, "left in the environment")
			os.Exit(1)
		}
		select {}
	}
	if os.Getenv("CHILDPROC_TEST_PARENT") == "watch" {
		// Children tied to this process by the watch pipe alone (no
		// parent-death signal), whatever the OS.
		var line []string
		for range parentChildren {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "CHILDPROC_TEST_PARENT=", "CHILDPROC_TEST_CHILD=1")
			cmd.Stdout = os.Stderr
			withWatch(cmd, syscall.SIGKILL)
			if err := cmd.Start(); err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			go cmd.Wait()
			line = append(line, strconv.Itoa(cmd.Process.Pid))
		}
		fmt.Println(strings.Join(line, " "))
		select {}
	}
	if os.Getenv("CHILDPROC_TEST_PARENT") == "1" {
		pids := make(chan int)
		for range parentChildren {
			go func() {
				runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
				cmd := exec.Command("sleep", "60")
				if err := Start(cmd, syscall.SIGKILL); err != nil {
					fmt.Println("error", err)
					os.Exit(1)
				}
				go cmd.Wait()
				pids <- cmd.Process.Pid
			}()
		}
		var line []string
		for range parentChildren {
			line = append(line, strconv.Itoa(<-pids))
		}
		fmt.Println(strings.Join(line, " "))
		select {}
	}
	os.Exit(m.Run())
}

func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// A child outlives the goroutine and thread that asked for it, and dies
// with its parent process when that is killed with SIGKILL.
func TestChildDiesWithParentOnly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the parent-death signal is Linux only")
	}
	parent, children := startParent(t, "1")

	// The threads that asked for the children have ended by now (their
	// goroutines sent the pids and returned); give the kernel a moment to
	// deliver a signal it would have sent, then check none came.
	time.Sleep(300 * time.Millisecond)
	for _, pid := range children {
		if !alive(pid) {
			t.Errorf("child %d died when the thread that asked for it ended", pid)
		}
	}
	killParentAwaitChildren(t, parent, children)
}

// Children handed the watch pipe die with their parent, killed with
// SIGKILL, by the pipe alone: how they die with tmx-mcp where there is no
// parent-death signal (macOS, the BSDs). While the parent lives they run.
func TestWatchPipeChildrenDieWithParent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the test reads /proc to see the children")
	}
	parent, children := startParent(t, "watch")
	for _, pid := range children {
		if !alive(pid) {
			t.Fatalf("child %d died while its parent ran", pid)
		}
	}
	killParentAwaitChildren(t, parent, children)
}

// startParent starts this test binary as the parent (CHILDPROC_TEST_PARENT
// set to mode), and returns it and the pids of the parentChildren children
// it says it started; the cleanup kills them all.
func startParent(t *testing.T, mode string) (*exec.Cmd, []int) {
	t.Helper()
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), "CHILDPROC_TEST_PARENT="+mode)
	parent.Stderr = os.Stderr
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { parent.Process.Kill(); parent.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("parent said %q: %v", line, err)
	}
	var children []int
	for _, f := range strings.Fields(line) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("parent said %q", line)
		}
		children = append(children, pid)
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	}
	if len(children) != parentChildren {
		t.Fatalf("parent said %q", line)
	}
	return parent, children
}

// killParentAwaitChildren kills parent with SIGKILL and fails unless each
// of children dies after it.
func killParentAwaitChildren(t *testing.T, parent *exec.Cmd, children []int) {
	t.Helper()
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	parent.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range children {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("child %d outlived its parent, killed with SIGKILL", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
