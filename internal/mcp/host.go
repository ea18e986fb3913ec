package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/remote"
	"github.com/tmx-sh/tmx/tmxerr"
)

// hostProbeDeadline bounds the startup call that asks the host about its
// server: ssh's connect timeout and one session.
const hostProbeDeadline = 45 * time.Second

// probeHost asks host, through the tmx CLI (so through the same shared
// SSH connection the tool calls use), what `tmx capabilities --json`
// reports there for the socket chosen by sockArgs: whether its server
// runs, where its socket is, and its configuration provenance. Its errors
// are the CLI's (host_unreachable, host_auth_failed, remote_tmx_not_found
// and the like), with their hints.
func probeHost(cli string, environ []string, host string, sockArgs []string) (*catalog.RemoteServer, error) {
	ctx, cancel := context.WithTimeout(context.Background(), hostProbeDeadline)
	defer cancel()
	args := append(append([]string{"--host", host}, sockArgs...), "capabilities", "--json")
	cmd := exec.CommandContext(ctx, cli, args...)
	cmd.Env = environ
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var facts catalog.RemoteServer
	if runErr == nil && json.Unmarshal(stdout.Bytes(), &facts) == nil {
		return &facts, nil
	}
	if e := gjson.Get(lastLine(strings.TrimSpace(stderr.String())), "error"); e.IsObject() {
		return nil, tmxerr.New(tmxerr.Code(e.Get("code").String()), e.Get("message").String(), e.Get("hint").String())
	}
	return nil, tmxerr.Errorf(tmxerr.CLIFailed, "tmx --host %s capabilities failed (%v)%s", host, runErr, tailOf(stderr.String())).
		WithHint("run it by hand to see why: tmx --host %s capabilities", host)
}

func tailOf(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return ""
	}
	return ": " + lastLine(s)
}

// hostOf reads TMX_HOST: the host tmx-mcp serves for its whole life, in
// the form results name it. Empty means this machine.
func hostOf(getenv func(string) string) (string, error) {
	v := getenv(remote.Env)
	if v == "" {
		return "", nil
	}
	h, err := remote.ParseHost(v)
	if err != nil {
		return "", err
	}
	return h.String(), nil
}
