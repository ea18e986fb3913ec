package mcp

import (
	"testing"
	"time"
)

// The task store's bounds: no more than maxActive tasks work at once,
// past maxKept the oldest ended task goes, an ended task goes once its
// ttl has passed, and a task that ended after its ttl is kept a while
// for its result.
func TestTaskStoreBounds(t *testing.T) {
	st := newTaskStore(2, 3, time.Hour)
	mk := func(id string, created time.Time, ttl time.Duration) *task {
		return &task{id: id, created: created, updated: created, ttl: ttl, done: make(chan struct{}), ready: make(chan struct{}), announced: make(chan struct{})}
	}
	now := time.Now()
	if !st.reserve() || !st.reserve() || st.reserve() {
		t.Fatal("reserve does not stop at maxActive")
	}
	a, b := mk("a", now, time.Hour), mk("b", now, time.Hour)
	st.add(a)
	st.add(b)
	st.finish(a, []byte(`{"content":[],"isError":false}`), nil)
	if !st.reserve() {
		t.Fatal("an ended task does not free its slot")
	}
	c, d := mk("c", now, time.Hour), mk("d", now, time.Hour)
	st.add(c)
	st.add(d) // a is the oldest ended task: it goes
	if st.get("a") != nil || st.get("b") == nil || st.get("d") == nil {
		t.Errorf("past maxKept: a %v b %v d %v", st.get("a"), st.get("b"), st.get("d"))
	}
	st.add(mk("e", now, time.Hour)) // none has ended: all are kept
	if len(st.order) != 4 {
		t.Errorf("working tasks dropped: %d kept", len(st.order))
	}

	old := mk("old", now.Add(-2*time.Hour), time.Hour)
	st.active++
	st.add(old)
	st.finish(old, []byte(`{"content":[],"isError":true}`), nil)
	if got := st.get("old"); got == nil || got.ttl < 2*time.Hour {
		t.Fatalf("a task ending after its ttl is not kept for its result: %+v", got)
	}
	if s := old.status(false); s != taskFailed {
		t.Errorf("isError in 2025-11-25: %s, want failed", s)
	}
	if s := old.status(true); s != taskCompleted {
		t.Errorf("isError in 2026-07-28: %s, want completed", s)
	}
	old.created = now.Add(-5 * time.Hour)
	if st.get("old") != nil {
		t.Error("an ended task past its ttl is kept")
	}
}
