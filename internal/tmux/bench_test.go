//go:build linux

package tmux

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// The benchmarks compare one command natively and through an exec'd tmux
// client, against a private server of the tmux on PATH:
//
//	go test -bench . -benchtime 200x ./internal/tmux
func benchServer(b *testing.B) *server {
	p, err := exec.LookPath("tmux")
	if err != nil {
		b.Skip("no tmux on PATH")
	}
	abs, _ := filepath.Abs(p)
	return newServer(b, build{"PATH", abs})
}

func benchBoth(b *testing.B, s *server, argv ...string) {
	b.Run("native", func(b *testing.B) {
		r := s.req(true, s.env, argv...)
		for b.Loop() {
			resp, err := Do(context.Background(), r)
			if err != nil || resp.ExitStatus != 0 {
				b.Fatalf("%+v %v", resp, err)
			}
			b.SetBytes(int64(len(resp.Stdout)))
		}
	})
	b.Run("exec", func(b *testing.B) {
		for b.Loop() {
			resp := s.exec(context.Background(), true, s.env, nil, argv...)
			if resp.ExitStatus != 0 {
				b.Fatalf("%+v", resp)
			}
			b.SetBytes(int64(len(resp.Stdout)))
		}
	})
}

func BenchmarkListPanes(b *testing.B) {
	s := benchServer(b)
	benchBoth(b, s, "list-panes", "-a", "-F", "#{pane_id}\t#{pane_current_command}")
}

func BenchmarkCapture10k(b *testing.B) {
	s := benchServer(b)
	pane := s.historyPane(10000)
	benchBoth(b, s, "capture-pane", "-p", "-t", pane, "-S", "-", "-E", "-")
}
