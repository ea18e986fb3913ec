package catalog

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
)

// DecideOptions are the inputs of [Decide].
type DecideOptions struct {
	// SocketName and SocketPath are the -L and -S flags, if given.
	SocketName, SocketPath string
	// Environ is the process environment (nil: os.Environ()).
	Environ []string
	// Warn receives warnings about bad TMX_* limits as lines (nil:
	// none); the document carries them in its "warnings" either way.
	Warn io.Writer
	// Version is the server version the document names.
	Version string
	// Host is the SSH destination served (TMX_HOST), empty for this
	// machine; the document names it.
	Host string
	// Remote is what Host reported of its tmux server (its tmx
	// capabilities document): with a Host, Decide uses it instead of
	// looking at a socket here. Nil means unknown, taken as a server that
	// runs (so teardown is not offered by default).
	Remote *RemoteServer
}

// RemoteServer is what a host reports of the tmux server on the selected
// socket there.
type RemoteServer struct {
	Live             bool   `json:"server_running_at_start"`
	SocketPath       string `json:"socket_path"`
	ConfigProvenance string `json:"config_provenance"`
}

// Decision is what tmx-mcp freezes at startup and `tmx capabilities`
// shows: the socket, whether a server already ran on it, the surface, the
// limits, and the tmux://capabilities document.
type Decision struct {
	Socket client.Socket
	// Live is whether a server answered on the socket (by connecting,
	// without sending a tmux command).
	Live    bool
	Surface *Surface
	Limits  client.Limits
	// Capabilities is the tmux://capabilities document, as JSON.
	Capabilities []byte
	// Getenv reads Environ.
	Getenv func(string) string
}

// Decide chooses the socket (-L/-S, else TMX_SOCKET_NAME or
// TMX_SOCKET_PATH, else tmx's own), checks whether a server runs on it,
// selects the surface ([Select]; teardown is on by default only when
// tmx-mcp will start the dedicated server itself, or the one that runs is
// the generation tmx recorded when it started it), reads the limits, and
// writes the tmux://capabilities document: server, socket, provenance,
// selection, tools, limits, every surface tool's row, and what the surface
// does not bound. With a Host, the server's facts are those the host
// reported (Remote) and the document names the host. It sends no tmux
// command. Errors: those of
// client.SelectSocket and [Select] (code usage).
func Decide(o DecideOptions) (*Decision, error) {
	environ := o.Environ
	if environ == nil {
		environ = os.Environ()
	}
	m := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	getenv := func(k string) string { return m[k] }
	lookup := func(k string) (string, bool) { v, ok := m[k]; return v, ok }

	sock, err := client.SelectSocket(client.Options{SocketName: o.SocketName, SocketPath: o.SocketPath, Environ: environ})
	if err != nil {
		return nil, err
	}
	var live, tmxStarted bool
	var socketPath, provenance string
	var generation *client.Generation
	if o.Host != "" {
		live, provenance = true, "unknown"
		if r := o.Remote; r != nil {
			live, socketPath, provenance = r.Live, r.SocketPath, r.ConfigProvenance
		}
		// The host's tmx tells its own server from others (its recorded
		// generation): a provenance other than unknown is tmx's.
		tmxStarted = live && provenance != "unknown"
	} else {
		live, socketPath, provenance = sock.Live(getenv), sock.PathIn(getenv), "unknown"
		// Teardown is offered by default on tmx's dedicated socket when
		// the server there is tmx's own: none runs yet (tmx will start
		// it), or the one that runs is the generation tmx recorded when it
		// started it (a restarted host finds it). Each teardown call
		// re-checks, since the server can change while tmx-mcp runs.
		var gen client.Generation
		gen, tmxStarted = client.TmxStarted(sock, getenv)
		switch {
		case !live:
			provenance = "tmx-minimal"
			if getenv("TMX_TMUX_CONFIG") != "" {
				provenance = "tmx-config"
			}
		case tmxStarted:
			provenance, generation = gen.ConfigProvenance, &gen
		}
	}
	surface, err := Select(lookup, sock.Source == "default" && (!live || tmxStarted))
	if err != nil {
		return nil, err
	}
	if live && tmxStarted && surface.TeardownByDefault {
		surface.Reason = "default: inspect, manage, execute, and teardown because the dedicated server is the one tmx started"
	}
	limits, warnings := client.ReadLimits(getenv)
	if o.Warn != nil {
		for _, w := range warnings {
			fmt.Fprintf(o.Warn, "tmx: warning: %s\n", w)
		}
	}

	rows := []Capability{}
	for _, t := range surface.Tools {
		rows = append(rows, t.Capability())
	}
	boundaries := Boundaries
	if o.Host != "" {
		boundaries = append([]string{HostBoundary}, Boundaries...)
	}
	doc := capabilitiesDoc{
		Host:   o.Host,
		Server: serverInfo{Name: "tmx-mcp", Title: "tmx", Version: o.Version},
		Socket: sock, SocketPath: socketPath, ServerRunningAtStart: live,
		ConfigProvenance: provenance, ServerGeneration: generation, TeardownGuard: surface.TeardownByDefault,
		Selection: surface, Tools: surface.Names(),
		Limits: result.LimitsOf(limits), PollingFallback: getenv("TMX_ALLOW_POLLING_FALLBACK") == "1",
		Rows: rows, Boundaries: boundaries, Warnings: warnings,
	}
	caps, err := result.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return &Decision{Socket: sock, Live: live, Surface: surface, Limits: limits, Capabilities: caps, Getenv: getenv}, nil
}

// HostBoundary is the first boundary when tmx-mcp serves a host.
const HostBoundary = "Every tool acts on the host through SSH, with the authority of the user ssh logs in as there; the host's tmux, shells and files are that user's, and nothing here narrows what a pane there can do."

// Boundaries state what the surface does not bound.
var Boundaries = []string{
	"The socket limits which tmux objects tools can name; it is not a sandbox: pane commands run with the user's authority.",
	"Toolsets choose which tools are offered and callable; they are not authorization, and an execute tool can type what a hidden tool would have done.",
	"MCP annotations are consent hints, set to the conservative values because tmux aliases and hooks can turn any call into anything.",
	"The self-kill guard protects only direct kill, respawn and input tools, not equivalent commands typed into a pane.",
	"Audit redaction applies to the audit record only; history suppression is best effort.",
}

type serverInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

type capabilitiesDoc struct {
	Host                 string        `json:"host,omitempty"`
	Server               serverInfo    `json:"server"`
	Socket               client.Socket `json:"socket"`
	SocketPath           string        `json:"socket_path"`
	ServerRunningAtStart bool          `json:"server_running_at_start"`
	ConfigProvenance     string        `json:"config_provenance"`
	// ServerGeneration is the server tmx started that was found running
	// at startup, when it was.
	ServerGeneration *client.Generation `json:"server_generation,omitempty"`
	// TeardownGuard says that the teardown tools, offered by default,
	// check at each call that the server is the one tmx started.
	TeardownGuard   bool          `json:"teardown_guard"`
	Selection       *Surface      `json:"selection"`
	Tools           []string      `json:"tools"`
	Limits          result.Limits `json:"limits"`
	PollingFallback bool          `json:"polling_fallback"`
	Rows            []Capability  `json:"rows"`
	Boundaries      []string      `json:"boundaries"`
	// Warnings name the TMX_* limits out of their range, which fell
	// back to their defaults (what limits shows).
	Warnings []string `json:"warnings,omitempty"`
}
