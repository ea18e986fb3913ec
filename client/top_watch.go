package client

import (
	"context"
	"sync"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// ServerWatch wakes its owner whenever something a view of every pane
// shows may have changed: a pane printed, a layout changed, or sessions,
// windows or panes came or went. It is woken by tmux (CONTROL MODE in
// tmux(1)), never by polling: one ignore-size control client per session,
// since tmux sends a control client the output of its own session's panes
// only. The clients are not read-only, though they send nothing: from tmux
// 3.7 on, send-keys refuses a target whose current client is read-only
// ("client is read-only", cmd-send-keys.c), so a read-only watcher would
// stop every tmx send into the sessions it watches. Each client counts in
// session_attached, and client-attached hooks run for it, as for any
// client.
type ServerWatch struct {
	c       *Client
	mu      sync.Mutex
	clients map[string]*tmux.Control // by session id
	changed chan struct{}
	done    chan struct{}
	once    sync.Once
}

// WatchServer attaches to every session of snap. Call [ServerWatch.Sync]
// with each new snapshot, so that sessions created later are watched too,
// and [ServerWatch.Close] when done.
func (c *Client) WatchServer(ctx context.Context, snap *Snapshot) (*ServerWatch, error) {
	w := &ServerWatch{c: c, clients: map[string]*tmux.Control{}, changed: make(chan struct{}, 1), done: make(chan struct{})}
	if err := w.Sync(ctx, snap); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// Changed gets a value (coalesced) after each change.
func (w *ServerWatch) Changed() <-chan struct{} { return w.changed }

// Sync attaches to the sessions of snap not watched yet and detaches from
// those that are gone.
func (w *ServerWatch) Sync(ctx context.Context, snap *Snapshot) error {
	want := map[string]bool{}
	for _, p := range snap.Panes {
		want[p.SessionID] = true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for id, cc := range w.clients {
		ended := false
		select {
		case <-cc.Exited(): // detached by someone, or its session ended
			ended = true
		default:
		}
		if ended || !want[id] {
			delete(w.clients, id)
			go cc.Close()
		}
	}
	for id := range want {
		if _, ok := w.clients[id]; ok {
			continue
		}
		cc, err := w.c.r.AttachControlFlags(ctx, id, "", "ignore-size")
		if err != nil {
			return err
		}
		w.clients[id] = cc
		go w.forward(cc)
	}
	return nil
}

func (w *ServerWatch) forward(cc *tmux.Control) {
	for {
		select {
		case <-cc.Wake():
			notify(w.changed)
		case <-cc.Structure():
			notify(w.changed)
		case <-cc.Exited():
			notify(w.changed)
			return
		case <-w.done:
			return
		}
	}
}

// Close detaches every control client and waits until they are gone.
func (w *ServerWatch) Close() {
	w.once.Do(func() { close(w.done) })
	w.mu.Lock()
	clients := w.clients
	w.clients = map[string]*tmux.Control{}
	w.mu.Unlock()
	var wg sync.WaitGroup
	for _, cc := range clients {
		wg.Add(1)
		go func() { defer wg.Done(); cc.Close() }()
	}
	wg.Wait()
}

// PaneAtPrompt says whether p's program is a shell waiting at its prompt
// (read from /proc and the pane's terminal, as tmx run does before it
// types): Yes, No (another program, or the shell is busy), or Unknown
// where that cannot be read.
func (c *Client) PaneAtPrompt(p PaneInfo) Tri {
	if p.PaneDead {
		return No
	}
	if _, kind := paneShell(p); kind == shellNone {
		return No
	}
	return c.shellPrompt(p).AtPrompt
}

// notify sends ch a value unless one is waiting (coalesced).
func notify(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
