package mcp

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/statedir"
	"github.com/tmx-sh/tmx/internal/tmux"
)

// A run task outlives its tmx-mcp: its id is "run:" and the run's resume
// token, and the command goes on in its pane whatever happens to
// tmx-mcp. The token is signed with the cursor key of the tmx-mcp that
// started the run, a key of that process alone, so that process keeps
// the key, while the task may live, in tmx's private directory
// (statedir, mode 0700): task-keys/KEYID, mode 0600, KEYID being the key
// id the token starts with. A later tmx-mcp asked for a task it does not
// know by such an id finds the key by the token and waits for the run
// again, its children signing and checking with that key; the task's
// createdAt is then when it was found. Any other unknown id, or a run
// task whose key is gone, is not found (-32602), never a task that lost
// its output.

const taskKeysDir = "task-keys"

// runTokenKeyID returns the hex key id a resume token was signed with.
func runTokenKeyID(token string) (string, bool) {
	const prefix = "r1."
	if !strings.HasPrefix(token, prefix) {
		return "", false
	}
	b, err := base64.RawURLEncoding.DecodeString(token[len(prefix):])
	n := len(client.CursorKey{}.ID)
	if err != nil || len(b) < n {
		return "", false
	}
	return hex.EncodeToString(b[:n]), true
}

// cursorKey returns the cursor key tmx-mcp gives its children.
func (s *Server) cursorKey() string {
	return tmux.EnvLookup(s.cfg.Env)(client.CursorKeyEnv)
}

func (s *Server) taskKeysDir() (string, error) {
	dir, err := statedir.Dir(tmux.EnvLookup(s.cfg.Env))
	if err != nil {
		return "", err
	}
	dir = filepath.Join(dir, taskKeysDir)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	return dir, nil
}

// saveTaskKey keeps key, the key that signed a run task's token, and
// marks it used now (its file's time); it removes keys unused for longer
// than a task lives.
func (s *Server) saveTaskKey(token, key string) {
	id, ok := runTokenKeyID(token)
	if !ok || key == "" {
		return
	}
	dir, err := s.taskKeysDir()
	if err != nil {
		return
	}
	path := filepath.Join(dir, id)
	if f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.WriteString(key)
		f.Close()
	} else {
		now := time.Now()
		os.Chtimes(path, now, now)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.Name() != id && time.Since(info.ModTime()) > DefaultTaskTTL+taskLinger {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// revive returns the task of an earlier tmx-mcp named by id, when it is a
// run task whose key was kept and run_shell_command is served; nil
// otherwise. The task waits for the run again from now, for at most the
// task lifetime.
func (s *Server) revive(id string, e era) *task {
	token, ok := strings.CutPrefix(id, runTaskPrefix)
	if !ok || s.tools["run_shell_command"] == nil {
		return nil
	}
	keyID, ok := runTokenKeyID(token)
	if !ok {
		return nil
	}
	dir, err := s.taskKeysDir()
	if err != nil {
		return nil
	}
	key, err := os.ReadFile(filepath.Join(dir, keyID))
	if err != nil || len(key) == 0 {
		return nil
	}
	if !s.tasks.reserve() {
		return nil
	}
	now := time.Now()
	t := &task{tool: "run_shell_command", modern: e.modern, created: now, updated: now, ttl: s.tasks.ttl,
		done: make(chan struct{}), ready: make(chan struct{}), resume: token, key: strings.TrimSpace(string(key))}
	s.saveTaskKey(token, t.key)
	s.markReady(t, id)
	args, _ := json.Marshal(map[string]any{"name": "run_shell_command", "arguments": map[string]any{"resume": token}})
	msg := &Message{Method: "tools/call", Params: args, ClientID: json.RawMessage(strconv.Quote("revived " + id[:min(len(id), 40)]))}
	var p params
	json.Unmarshal(args, &p)
	s.runTaskCall(t, msg, &p)
	return t
}
