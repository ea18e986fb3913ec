package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tmx-sh/tmx/internal/remote"
	"github.com/tmx-sh/tmx/internal/sshtest"
)

// sshRatio: one call through a shared SSH connection against the same
// call here. The "host" is this machine, through a private sshd on
// 127.0.0.1 whose sessions get a home of empty rc files, so the figures
// are tmx's and ssh's cost, not a login script's or a network's.
func (b *bench) sshRatio() {
	fmt.Fprintf(&b.out, "\n### One call through a shared SSH connection, against the same call here\n\n")
	if _, err := sshtest.Find(); err != nil {
		fmt.Fprintf(&b.out, "Not measured: %v.\n", err)
		return
	}
	pane := b.pane("ssh")
	dirs := map[string]string{}
	for _, d := range []string{"sshd", "rhome", "rrun"} {
		dirs[d] = filepath.Join(b.dir, d)
		os.MkdirAll(dirs[d], 0o700)
	}
	os.WriteFile(filepath.Join(dirs["rhome"], ".bashrc"), nil, 0o600)
	srv, err := sshtest.Start(dirs["sshd"], sshtest.Options{SetEnv: []string{"HOME=" + dirs["rhome"], "XDG_RUNTIME_DIR=" + dirs["rrun"]}})
	if err != nil {
		fmt.Fprintf(&b.out, "Not measured: %v.\n", err)
		return
	}
	defer srv.Stop()
	short, _ := os.MkdirTemp("", "tmxb") // control sockets need a short path
	os.Chmod(short, 0o700)
	defer os.RemoveAll(short)
	via := []string{"TMX_SSH=" + srv.SSH, "TMX_REMOTE_TMX=" + b.tmx, "XDG_RUNTIME_DIR=" + short}
	env := append(append([]string{}, b.env...), via...)
	h, _ := remote.ParseHost(srv.Host)
	defer remote.Close(h, env)
	run := func(args ...string) {
		cmd := exec.Command(b.tmx, args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			panic(fmt.Sprintf("tmx %s: %v: %s", strings.Join(args, " "), err, out))
		}
	}
	first := timed(func() { run("--host", srv.Host, "version") })

	// The floor: ssh running true over a shared connection of its own.
	floorCtl := filepath.Join(short, "floor")
	sshArgs := func(extra ...string) []string {
		return append([]string{"-o", "BatchMode=yes", "-o", "ControlPath=" + floorCtl, "-p", strconv.Itoa(srv.Port)}, extra...)
	}
	if out, err := exec.Command(srv.SSH, sshArgs("-o", "ControlMaster=yes", "-o", "ControlPersist=60", "-N", "-f", "127.0.0.1")...).CombinedOutput(); err != nil {
		panic(fmt.Sprintf("ssh: %v: %s", err, out))
	}
	defer exec.Command(srv.SSH, sshArgs("-O", "exit", "127.0.0.1")...).Run()
	floor := interleave(*n, []func() time.Duration{func() time.Duration {
		return timed(func() { exec.Command(srv.SSH, sshArgs("-T", "127.0.0.1", "true")...).Run() })
	}})[0]

	fmt.Fprintf(&b.out, "The host is this machine through a private sshd on 127.0.0.1, so the ratio is what SSH adds\n"+
		"without a network: the ssh client, one session over the shared connection, the login shell and\n"+
		"tmx's session process there. Over a network, add one round trip per call.\n\n")
	fmt.Fprintf(&b.out, "| call | here, median | through SSH, median | through SSH, p90 | ratio |\n|---|---|---|---|---|\n")
	for _, tc := range []struct {
		what string
		args []string
	}{
		{"`tmx capture --json PANE`", []string{"--json", "capture", pane}},
		{"`tmx run PANE -- true`", []string{"run", pane, "--", "true"}},
	} {
		ds := interleave(*n, []func() time.Duration{
			func() time.Duration { return timed(func() { run(tc.args...) }) },
			func() time.Duration {
				return timed(func() { run(append([]string{"--host", srv.Host}, tc.args...)...) })
			},
		})
		here, there := ds[0], ds[1]
		fmt.Fprintf(&b.out, "| %s | %s | %s | %s | %s |\n", tc.what, ms(median(here)), ms(median(there)), ms(p90(there)), ratio(median(there), median(here)))
	}
	v := b.vars(pane)
	tmxMCP := b.servers[0]
	remoteMCP := &server{name: "tmx-mcp over SSH", argv: tmxMCP.argv, env: append(append([]string{remote.Env + "=" + srv.Host}, via...), tmxMCP.env...), calls: tmxCalls}
	local, err := tmxMCP.start(b.env, v)
	if err != nil {
		panic(err)
	}
	over, err := remoteMCP.start(b.env, v)
	if err != nil {
		panic(err)
	}
	ds := interleave(*n, []func() time.Duration{
		func() time.Duration { return timed(func() { local.call("capture_pane", v) }) },
		func() time.Duration { return timed(func() { over.call("capture_pane", v) }) },
	})
	here, there := ds[0], ds[1]
	local.close()
	over.close()
	fmt.Fprintf(&b.out, "| `capture_pane` over MCP (tmx-mcp with `TMX_HOST`) | %s | %s | %s | %s |\n", ms(median(here)), ms(median(there)), ms(p90(there)), ratio(median(there), median(here)))
	fmt.Fprintf(&b.out, "\nThe floor, `ssh HOST true` over a shared connection: median %s. The first call to a host,\n"+
		"which starts the shared connection and checks the tmx there once: %s.\n", ms(median(floor)), ms(first))
}
