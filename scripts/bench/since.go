package main

import (
	"encoding/json"
	"fmt"
	"time"
)

// sinceBytes: ten successive looks at a pane printing 50 lines a second,
// one second apart: capture_since against capture_pane.
func (b *bench) sinceBytes() {
	pane := b.pane("since")
	b.tmux("send-keys", "-t", pane, "-l", "for i in $(seq 1 100000); do echo \"log line $i: some service said something\"; sleep 0.02; done")
	b.tmux("send-keys", "-t", pane, "Enter")
	time.Sleep(2 * time.Second)
	out, _ := b.run(b.tmx, "since", "--json", "--from-now", pane)
	var d struct {
		Cursor string   `json:"cursor"`
		Lines  []string `json:"lines"`
	}
	json.Unmarshal(out, &d)
	var sinceBytes, sinceLines, captureBytes int
	for i := 0; i < 10; i++ {
		time.Sleep(time.Second)
		out, _ = b.run(b.tmx, "since", "--json", "--cursor", d.Cursor, pane)
		json.Unmarshal(out, &d)
		sinceBytes += len(out)
		sinceLines += len(d.Lines)
		cap, _ := b.run(b.tmx, "capture", "--json", pane)
		captureBytes += len(cap)
	}
	b.tmux("send-keys", "-t", pane, "C-c")
	fmt.Fprintf(&b.out, "\n### Ten looks at a pane printing 50 lines a second, one second apart\n\n")
	fmt.Fprintf(&b.out, "| reader | bytes returned in all | per look |\n|---|---|---|\n")
	fmt.Fprintf(&b.out, "| `capture_since` (`tmx since --json`), %d new lines in all | %d | %d |\n", sinceLines, sinceBytes, sinceBytes/10)
	fmt.Fprintf(&b.out, "| `capture_pane` (`tmx capture --json`, default 500-line budget) | %d | %d |\n", captureBytes, captureBytes/10)
	fmt.Fprintf(&b.out, "\n`capture_since` returned %.0f%% of what `capture_pane` did: about %d bytes per new line.\n",
		100*float64(sinceBytes)/float64(captureBytes), sinceBytes/max(sinceLines, 1))
}
