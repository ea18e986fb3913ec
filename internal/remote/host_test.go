package remote

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseHost(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Host
		str  string
	}{
		{"build", Host{Name: "build"}, "build"},
		{"deploy@10.0.0.5:2222", Host{User: "deploy", Name: "10.0.0.5", Port: 2222}, "deploy@10.0.0.5:2222"},
		{"a.b-c_d", Host{Name: "a.b-c_d"}, "a.b-c_d"},
		{"[fd00::5]:22", Host{Name: "fd00::5", Port: 22}, "[fd00::5]:22"},
		{"root@[::1]", Host{User: "root", Name: "::1"}, "root@::1"},
		{"::1", Host{Name: "::1"}, "::1"},
		{"fe80::1%eth0", Host{Name: "fe80::1%eth0"}, "fe80::1%eth0"},
		{"x:65535", Host{Name: "x", Port: 65535}, "x:65535"},
	} {
		h, err := ParseHost(tc.in)
		if err != nil || h != tc.want || h.String() != tc.str {
			t.Errorf("ParseHost(%q) = %+v %q, %v; want %+v %q", tc.in, h, h.String(), err, tc.want, tc.str)
		}
		if again, err := ParseHost(h.String()); err != nil || again != h {
			t.Errorf("ParseHost(%q) (printed from %q) = %+v, %v", h.String(), tc.in, again, err)
		}
	}
}

// A destination ssh could read as an option, or one holding shell or
// ssh_config syntax, is refused before ssh runs.
func TestParseHostRefuses(t *testing.T) {
	for _, in := range []string{
		"", "-oProxyCommand=sh", "user@-oProxyCommand=x", "-l@host", ".hidden", "host:", "host:0", "host:70000",
		"host:22x", "host:022", "a b", "a;b", "a$(x)", "a\nb", "user@", "@host", "[::1", "[::1]x", "[host]:22",
		"[::1]:", "x@y@z:22:33", "h\x00", "ünï", "a/b", "a\\b", "'a'",
	} {
		h, err := ParseHost(in)
		if err == nil {
			t.Errorf("ParseHost(%q) = %+v, want an error", in, h)
			continue
		}
		if te := tmxerr.As(err); te.Code != tmxerr.InvalidArgument || !strings.Contains(te.Hint, "[USER@]HOST[:PORT]") {
			t.Errorf("ParseHost(%q): %v (code %s, hint %q)", in, err, te.Code, te.Hint)
		}
	}
}

// The destination ends ssh's command line after "--", so no part of it is
// an option.
func TestSSHArgsEndOptions(t *testing.T) {
	h, _ := ParseHost("me@box:2200")
	got := strings.Join(h.sshArgs(), " ")
	if got != "-l me -p 2200 -- box" {
		t.Errorf("sshArgs = %q", got)
	}
}

func FuzzParseHost(f *testing.F) {
	for _, s := range []string{"build", "u@h:22", "[::1]:2", "-x", "a@b@c", "[fe80::1%lo]:9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHost(s)
		if err != nil {
			return
		}
		for _, a := range h.sshArgs() {
			if a != "--" && a != "-l" && a != "-p" && strings.HasPrefix(a, "-") {
				t.Fatalf("%q gives ssh the argument %q", s, a)
			}
		}
		if strings.ContainsAny(h.String(), " \t\n\r\x00;$`'\"\\|&<>(){}*?!#~=") {
			t.Fatalf("%q parsed to %q, which holds shell syntax", s, h.String())
		}
		again, err := ParseHost(h.String())
		if err != nil || again != h {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", s, h, h.String(), again, err)
		}
	})
}

func TestOlderThan(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"v0.1.0", "v0.2.0", true},
		{"v0.2.0", "v0.1.9", false},
		{"v1.2.3", "v1.2.3", false},
		{"v1.2.3-4-gabcdef", "v1.2.4", true},
		{"v1.2.3-dirty", "v1.2.3", false},
		{"v1.10.0", "v1.9.0", false},
		{"dev", "v1.0.0", false},
		{"v1.0.0", "dev", false},
		{"abc1234", "v0.0.1", false},
	} {
		if got := olderThan(tc.a, tc.b); got != tc.want {
			t.Errorf("olderThan(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}

func TestNameHost(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"schema_version":1,"a":2}` + "\n", `{"schema_version":1,"host":"u@h:22","a":2}` + "\n"},
		{`{"schema_version":1}`, `{"schema_version":1,"host":"u@h:22"}`},
		{`{"schema_version":12,"x":1}`, `{"schema_version":12,"host":"u@h:22","x":1}`},
		{"tmx: error: no pane\n", "tmx: error: no pane\n"},
		{`{"schema_version":"1"}`, `{"schema_version":"1"}`},
		{`{"schema_version":}`, `{"schema_version":}`},
		{`{"schema_version":1`, `{"schema_version":1`},
		{` {"schema_version":1}`, ` {"schema_version":1}`},
	} {
		if got := string(NameHost([]byte(tc.in), "u@h:22")); got != tc.want {
			t.Errorf("NameHost(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// hostLines names the host in every document line, however the writes
// split them, and leaves other lines alone.
func TestHostLines(t *testing.T) {
	in := `{"schema_version":1,"a":1}` + "\nplain\n" + `{"schema_version":1,"b":2}`
	want := `{"schema_version":1,"host":"h","a":1}` + "\nplain\n" + `{"schema_version":1,"host":"h","b":2}`
	for step := 1; step <= len(in); step++ {
		var b strings.Builder
		w := &hostLines{w: &b, host: "h"}
		for i := 0; i < len(in); i += step {
			w.Write([]byte(in[i:min(i+step, len(in))]))
		}
		w.flush()
		if b.String() != want {
			t.Fatalf("step %d: %q", step, b.String())
		}
	}
}

// A call from tmx-mcp (TMX_WORDS=mcp) has the host word its hints for
// tools too; other settings of the caller stay behind.
func TestCallEnvForwardsWords(t *testing.T) {
	m, err := callEnv([]string{"TMX_WORDS=mcp", "TMX_TMUX=/opt/tmux", "TMX_SOCKET_NAME=w"}, "build")
	if err != nil {
		t.Fatal(err)
	}
	if m["TMX_WORDS"] != "mcp" || m["TMX_SOCKET_NAME"] != "w" {
		t.Errorf("callEnv = %v, lacks TMX_WORDS=mcp or TMX_SOCKET_NAME=w", m)
	}
	if _, ok := m["TMX_TMUX"]; ok {
		t.Errorf("callEnv = %v forwards TMX_TMUX", m)
	}
}
