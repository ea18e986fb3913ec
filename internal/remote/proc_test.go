package remote_test

import (
	"io"
	"os"
	"syscall"

	"github.com/tmx-sh/tmx/internal/cli"
)

func newGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func killGroup(pid int) { syscall.Kill(-pid, syscall.SIGKILL) }

func terminate(p *os.Process) { p.Signal(syscall.SIGTERM) }

func newEnv(r *rig, out, errw io.Writer, args []string) *cli.Env {
	return &cli.Env{Out: out, Err: errw, Environ: r.env, Args: append([]string{"tmx"}, args...)}
}

var runEnv = cli.Run
