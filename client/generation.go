package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tmx-sh/tmx/internal/statedir"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Generation identifies one run of a tmux server that tmx started with its
// own configuration: the socket, the server's pid and its start time as
// tmux reports them (#{socket_path}, #{pid}, #{start_time}), and what tmx
// needs to recognise that run again without asking tmux: the socket
// file's device and inode, and, from /proc, the process's start in clock
// ticks since boot and the boot's id.
//
// tmx writes the generation when it starts a server ([Client.Exec] with
// -f), in its private directory (the one of the cursor key and the
// generated configuration: $XDG_RUNTIME_DIR/tmx, else $TMPDIR/tmx-UID,
// mode 0700), one file per socket, mode 0600. A server that runs with the
// recorded generation is known to have tmx's configuration; any other
// server on the socket, even one stamped @tmx_provenance, is not.
type Generation struct {
	SocketPath       string `json:"socket_path"`
	ServerPID        int    `json:"server_pid"`
	StartTime        int64  `json:"start_time"`
	ConfigProvenance string `json:"config_provenance"`
	SocketDev        uint64 `json:"socket_dev"`
	SocketIno        uint64 `json:"socket_ino"`
	ProcStart        uint64 `json:"proc_start,omitempty"`
	BootID           string `json:"boot_id,omitempty"`
}

// TeardownGuardEnv, set to 1 in tmx's environment, makes the teardown
// commands (kill, clear) refuse a server that is not the generation tmx
// recorded for the socket (error foreign_server). tmx-mcp sets it for the
// teardown tools it serves only because the server was, or was to be,
// tmx's own: each such call checks that it still is.
const TeardownGuardEnv = "TMX_TEARDOWN_REQUIRES_TMX_SERVER"

// generationFile is where the generation of the socket at sockPath is
// kept.
func generationFile(getenv func(string) string, sockPath string) (string, error) {
	dir, err := statedir.Dir(getenv)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(filepath.Clean(sockPath)))
	return filepath.Join(dir, "server-"+hex.EncodeToString(sum[:8])+".json"), nil
}

// recordGeneration writes the generation of the server that the command
// just run started, if it did: the socket took no connections before the
// command (began), and now a server answers whose provenance stamp is
// tmx's and whose start time is not older than began. Failures are
// ignored: without a record the server is merely not known as tmx's.
func (c *Client) recordGeneration(ctx context.Context, began time.Time) {
	recs, err := c.Query(ctx, []string{"socket_path", "pid", "start_time", "@tmx_provenance"}, "display-message", "-p", FormatArg)
	if err != nil || len(recs) != 1 {
		return
	}
	g := Generation{SocketPath: recs[0][0], ServerPID: atoi(recs[0][1]), StartTime: atoi64(recs[0][2])}
	g.ConfigProvenance, _ = ParseProvenance(recs[0][3])
	if g.ConfigProvenance == "unknown" || g.StartTime < began.Unix()-1 || g.ServerPID <= 0 {
		return
	}
	var ok bool
	if g.SocketDev, g.SocketIno, ok = socketInode(g.SocketPath); !ok {
		return
	}
	g.ProcStart, g.BootID = procIdentity(g.ServerPID)
	path, err := generationFile(c.getenv, g.SocketPath)
	if err != nil {
		return
	}
	b, err := json.Marshal(g)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".server-*.json") // mode 0600
	if err != nil {
		return
	}
	_, werr := tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// RecordedGeneration returns the generation tmx recorded for the socket at
// sockPath, if any.
func RecordedGeneration(getenv func(string) string, sockPath string) (Generation, bool) {
	path, err := generationFile(getenv, sockPath)
	if err != nil {
		return Generation{}, false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return Generation{}, false
	}
	g, ok := parseGeneration(b)
	if !ok || filepath.Clean(g.SocketPath) != filepath.Clean(sockPath) {
		return Generation{}, false
	}
	return g, true
}

// parseGeneration reads a generation file as json.Unmarshal would into a
// Generation: false for text that is not a JSON object or a field of the
// wrong JSON type. It uses gjson, not encoding/json, because decoding into
// a struct first builds its decoder by reflection: 0.15 ms of a command
// that reads this one small file (every snapshot checks provenance).
func parseGeneration(b []byte) (Generation, bool) {
	if !gjson.ValidBytes(b) {
		return Generation{}, false
	}
	doc := gjson.ParseBytes(b)
	ok := doc.IsObject()
	field := func(key string, want gjson.Type) gjson.Result {
		v := doc.Get(key)
		if v.Exists() && v.Type != want && v.Type != gjson.Null {
			ok = false
		}
		return v
	}
	g := Generation{
		SocketPath:       field("socket_path", gjson.String).Str,
		ServerPID:        int(field("server_pid", gjson.Number).Int()),
		StartTime:        field("start_time", gjson.Number).Int(),
		ConfigProvenance: field("config_provenance", gjson.String).Str,
		SocketDev:        field("socket_dev", gjson.Number).Uint(),
		SocketIno:        field("socket_ino", gjson.Number).Uint(),
		ProcStart:        field("proc_start", gjson.Number).Uint(),
		BootID:           field("boot_id", gjson.String).Str,
	}
	if !ok {
		return Generation{}, false
	}
	return g, true
}

// TmxStarted reports whether the server running on socket s now is the
// generation tmx recorded, and returns it. It sends tmux no command: the
// socket file must be the one the server made (same device and inode)
// and the recorded pid must still be that process (same start in /proc,
// same boot; where there is no /proc, a live pid). A socket with no
// server is not tmx-started.
func TmxStarted(s Socket, getenv func(string) string) (Generation, bool) {
	path := s.PathIn(getenv)
	g, ok := RecordedGeneration(getenv, path)
	if !ok || !s.Live(getenv) {
		return Generation{}, false
	}
	if dev, ino, ok := socketInode(path); !ok || dev != g.SocketDev || ino != g.SocketIno {
		return Generation{}, false
	}
	start, boot := procIdentity(g.ServerPID)
	switch {
	case g.ProcStart != 0:
		if start != g.ProcStart || boot != g.BootID {
			return Generation{}, false
		}
	case syscall.Kill(g.ServerPID, 0) != nil:
		return Generation{}, false
	}
	return g, true
}

// CheckTeardownGuard returns foreign_server when [TeardownGuardEnv] is set
// and srv, the server a teardown command is about to act on, is not the
// generation tmx recorded for its socket.
func (c *Client) CheckTeardownGuard(srv Server) error {
	if c.getenv(TeardownGuardEnv) != "1" {
		return nil
	}
	g, ok := RecordedGeneration(c.getenv, srv.SocketPath)
	if ok && g.ServerPID == srv.PID && g.StartTime == srv.StartTime {
		return nil
	}
	started := time.Unix(srv.StartTime, 0).UTC().Format(time.RFC3339)
	return tmxerr.Errorf(tmxerr.ForeignServer, "the tmux server on %s (pid %d, started %s) is not the one tmx started there, and teardown is offered by default only for that one", srv.SocketPath, srv.PID, started).
		WithHint("nothing was closed; to allow teardown on any server of this socket, name the toolset in tmx-mcp's TMX_TOOLSETS (or the tool in TMX_TOOLS)")
}

// socketInode returns the device and inode of the file at path.
func socketInode(path string) (dev, ino uint64, ok bool) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, 0, false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(sys.Dev), uint64(sys.Ino), true
}

// procIdentity returns a process's start in hundredths of a second after
// boot ([tmux.Stat]) and the boot's identity ([tmux.BootID]), or zero
// values where the OS's records cannot be read.
func procIdentity(pid int) (start uint64, boot string) {
	st, ok := tmux.ReadStat(pid)
	if !ok || st.State == 'Z' {
		return 0, ""
	}
	return uint64(st.StartTicks), tmux.BootID()
}
