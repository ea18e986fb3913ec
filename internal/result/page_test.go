package result

import (
	"encoding/json"
	"testing"

	"github.com/tmx-sh/tmx/client"
)

// PaneBytes is what a pane takes in a Panes document: a listing measures
// its byte budget with it.
func TestPaneBytes(t *testing.T) {
	p := client.PaneInfo{}
	p.PaneID, p.SessionName, p.PaneCurrentPath, p.State = "%7", "wörk \"x\"", "/tmp/a\tb", "unknown"
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := PaneBytes(&p); got != len(b) {
		t.Errorf("PaneBytes %d, encoding/json %d", got, len(b))
	}
}
