package client

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// parseGeneration reads what recordGeneration writes as encoding/json
// would, and refuses what json.Unmarshal would refuse.
func TestParseGeneration(t *testing.T) {
	g := Generation{SocketPath: "/tmp/tmux-1000/tmx", ServerPID: 4242, StartTime: 1796150989,
		ConfigProvenance: ProvenanceMinimal, SocketDev: 2049, SocketIno: 1 << 40, ProcStart: 123456, BootID: "b7c1"}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := parseGeneration(b); !ok || got != g {
		t.Errorf("parseGeneration(%s) = %+v, %v; want %+v", b, got, ok, g)
	}
	for _, bad := range []string{``, `[]`, `"x"`, `{"server_pid":"4242"}`, `{"socket_path":7}`, `{"socket_ino":1`, `{} {}`} {
		var want Generation
		_, gotOK := parseGeneration([]byte(bad))
		if wantOK := json.Unmarshal([]byte(bad), &want) == nil; gotOK != wantOK {
			t.Errorf("parseGeneration(%q) ok=%v, json.Unmarshal ok=%v", bad, gotOK, wantOK)
		}
	}
}

// FuzzParseGeneration checks that every generation recordGeneration can
// write reads back the same, and that no text makes parseGeneration panic.
func FuzzParseGeneration(f *testing.F) {
	f.Add("/tmp/tmux-0/tmx", 1, int64(2), "tmx-minimal", uint64(3), uint64(4), uint64(5), "b", []byte(`{"server_pid":null}`))
	f.Fuzz(func(t *testing.T, path string, pid int, start int64, prov string, dev, ino, proc uint64, boot string, raw []byte) {
		parseGeneration(raw)
		g := Generation{SocketPath: path, ServerPID: pid, StartTime: start, ConfigProvenance: prov,
			SocketDev: dev, SocketIno: ino, ProcStart: proc, BootID: boot}
		b, err := json.Marshal(g)
		if err != nil {
			t.Skip()
		}
		// encoding/json writes invalid UTF-8 as U+FFFD: compare with what
		// it reads back itself.
		var want Generation
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if got, ok := parseGeneration(b); !ok || got != want {
			t.Fatalf("parseGeneration(%s) = %+v, %v; want %+v", b, got, ok, want)
		}
	})
}

// A process's identity is its start time from /proc/PID/stat and the boot
// id, read through the one stat parser (tmux.ReadStat); without /proc, and
// for a pid that names no process, both are zero.
func TestProcIdentity(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	start, boot := procIdentity(os.Getpid())
	st, ok := tmux.ReadStat(os.Getpid())
	if !ok || start == 0 || start != uint64(st.StartTicks) || boot == "" {
		t.Errorf("procIdentity(self) = %d %q; stat says %d", start, boot, st.StartTicks)
	}
	if start, boot := procIdentity(1 << 30); start != 0 || boot != "" {
		t.Errorf("procIdentity(no process) = %d %q", start, boot)
	}
}
