package mcp

import (
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

// A run task outlives its tmx-mcp: the command goes on in its pane
// whatever happens to tmx-mcp, and the task keeps what the next tmx-mcp
// needs to wait for it again. Once the run's first step has given its
// resume token, the task writes a record in tmx's private directory
// (statedir, mode 0700): task-runs/ID, mode 0600, holding the token and
// the cursor key that signed it, a key of that tmx-mcp process alone
// (tokens of another key are refused). A later tmx-mcp asked for a task
// it does not know by a run task's id ("run:" and 32 hex digits) reads the
// record and waits for the run again, its children checking the token
// with that key; the task's createdAt is then when it was found. A task
// with no record (any other id, a run killed before its first step
// ended, or a record older than a task lives) is not found (-32602), never
// a task that lost its output.

const taskRunsDir = "task-runs"

// runRecord is what a run task keeps for the next tmx-mcp.
type runRecord struct {
	Token string `json:"token"`
	Key   string `json:"key"`
}

// newRunTaskID returns a fresh run task id: "run:" and 32 hex digits.
func newRunTaskID() string { return runTaskPrefix + newTaskID() }

// runRecordName returns the file name of a run task's record, or false
// when id is not a run task's.
func runRecordName(id string) (string, bool) {
	hexID, ok := strings.CutPrefix(id, runTaskPrefix)
	if !ok || len(hexID) != 32 || strings.Trim(hexID, "0123456789abcdef") != "" {
		return "", false
	}
	return hexID, true
}

// cursorKey returns the cursor key tmx-mcp gives its children.
func (s *Server) cursorKey() string {
	return tmux.EnvLookup(s.cfg.Env)(client.CursorKeyEnv)
}

func (s *Server) taskRunsDir() (string, error) {
	dir, err := statedir.Dir(tmux.EnvLookup(s.cfg.Env))
	if err != nil {
		return "", err
	}
	dir = filepath.Join(dir, taskRunsDir)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	return dir, nil
}

// saveRunRecord writes (or rewrites) the record of run task t, whose
// newest token is token, and removes records older than a task lives.
func (s *Server) saveRunRecord(t *task, token string) {
	name, ok := runRecordName(t.id)
	key := t.key
	if key == "" {
		key = s.cursorKey()
	}
	if !ok || key == "" {
		return
	}
	dir, err := s.taskRunsDir()
	if err != nil {
		return
	}
	b, err := json.Marshal(runRecord{Token: token, Key: key})
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".run-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(dir, name)) != nil {
		os.Remove(tmp.Name())
		return
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > DefaultTaskTTL+taskLinger {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// revive returns the task of an earlier tmx-mcp named by id, when it is a
// run task with a record and run_shell_command is served; nil otherwise.
// The task waits for the run again from now, for at most the task
// lifetime.
func (s *Server) revive(id string, e era) *task {
	name, ok := runRecordName(id)
	if !ok || s.tools["run_shell_command"] == nil {
		return nil
	}
	dir, err := s.taskRunsDir()
	if err != nil {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	var rec runRecord
	if err != nil || json.Unmarshal(b, &rec) != nil || rec.Token == "" || rec.Key == "" {
		return nil
	}
	if !s.tasks.reserve() {
		return nil
	}
	now := time.Now()
	t := &task{tool: "run_shell_command", modern: e.modern, created: now, updated: now, ttl: s.tasks.ttl,
		done: make(chan struct{}), ready: make(chan struct{}), announced: make(chan struct{}), resume: rec.Token, key: rec.Key}
	close(t.announced) // found by the client's own tasks/get
	s.markReady(t, id)
	args, _ := json.Marshal(map[string]any{"name": "run_shell_command", "arguments": map[string]any{"resume": rec.Token}})
	msg := &Message{Method: "tools/call", Params: args, ClientID: json.RawMessage(strconv.Quote("revived " + id))}
	var p params
	json.Unmarshal(args, &p)
	s.runTaskCall(t, msg, &p)
	return t
}
