package suggest

import "testing"

func TestClosest(t *testing.T) {
	names := []string{"command", "target", "timeout_seconds", "capture", "kill"}
	for in, want := range map[string]string{"comand": "command", "targt": "target", "timeout": "timeout_seconds",
		"captur": "capture", "kil": "kill", "zzz": "", "": "", "max_lines": ""} {
		if got := Closest(in, names); got != want {
			t.Errorf("Closest(%q) = %q, want %q", in, got, want)
		}
	}
}
