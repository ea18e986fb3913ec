package doctor

import (
	"reflect"
	"strings"
	"testing"
)

func TestExtraAliases(t *testing.T) {
	// The lines of `show-options -sv command-alias` on a server where a
	// configuration added two aliases and re-set a default at another index.
	out := "split-pane=split-window\nsplitp=split-window\nserver-info=show-messages -JT\n" +
		"info=show-messages -JT\nchoose-window=choose-tree -w\nchoose-session=choose-tree -s\n" +
		"zz=kill-server\nsplitp=split-window\nls=kill-session -a\n"
	got := ExtraAliases(strings.Split(out, "\n"))
	want := []string{"zz=kill-server", "ls=kill-session -a"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ExtraAliases = %q, want %q", got, want)
	}
	if got := ExtraAliases(DefaultCommandAliases); got != nil {
		t.Errorf("the defaults are reported: %q", got)
	}
}

func TestHooksWithCommands(t *testing.T) {
	out := "after-bind-key\nafter-new-window[0] display-message hi\nafter-new-window[1] run-shell \"echo x\"\n" +
		"client-attached[3] run-shell \"echo y\"\nsession-closed\n"
	got := HooksWithCommands(out)
	want := []string{
		"after-new-window[0] display-message hi",
		`after-new-window[1] run-shell "echo x"`,
		`client-attached[3] run-shell "echo y"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("HooksWithCommands = %q, want %q", got, want)
	}
}

func TestStatusJobs(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{`#{?window_bigger,x,}"#{=21:pane_title}" %H:%M`, nil},
		{`#(date) %H`, []string{"date"}},
		{`##(not a job) #(uptime | cut -d, -f1)`, []string{"uptime | cut -d, -f1"}},
		{`###(a job after a literal #)`, []string{"a job after a literal #"}},
		{`#(echo $(whoami)) and #(x`, []string{"echo $(whoami)", "x"}},
		{`#`, nil},
	} {
		if got := StatusJobs(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("StatusJobs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLocaleCheck(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if ch := localeCheck(env(map[string]string{"LANG": "en_US.UTF-8"})); ch.Status != StatusOK {
		t.Errorf("UTF-8 LANG: %+v", ch)
	}
	// LC_ALL wins over LANG.
	ch := localeCheck(env(map[string]string{"LC_ALL": "C", "LANG": "en_US.UTF-8"}))
	if ch.Status != StatusWarn || !strings.Contains(ch.Summary, "LC_ALL=C") || !strings.Contains(ch.Detail, "-u and LC_CTYPE=C.UTF-8") {
		t.Errorf("LC_ALL=C: %+v", ch)
	}
	if ch := localeCheck(env(nil)); ch.Status != StatusWarn || !strings.Contains(ch.Summary, "unset") {
		t.Errorf("no locale: %+v", ch)
	}
}
