package client

import (
	"testing"
	"time"
)

// SetTiming sets the fields given and keeps the zero ones; the defaults
// are tmx's. Not parallel: it changes the timing of the whole process.
func TestSetTiming(t *testing.T) {
	def := DefaultTiming()
	if def.PromptSettle != 2*time.Second || def.SubmitWatch != 600*time.Millisecond || def.ReadyShellWait != 10*time.Second {
		t.Fatalf("defaults: %+v", def)
	}
	t.Cleanup(func() { SetTiming(def) })
	SetTiming(Timing{PromptSettle: time.Millisecond, ReadyDrawWait: 2 * time.Millisecond})
	want := def
	want.PromptSettle, want.ReadyDrawWait = time.Millisecond, 2*time.Millisecond
	if got := CurrentTiming(); got != want {
		t.Errorf("after SetTiming: %+v, want %+v", got, want)
	}
	if promptSettle != time.Millisecond || readyDrawWait != 2*time.Millisecond || resetWait != def.ResetWait {
		t.Errorf("the variables the waits read: %v %v %v", promptSettle, readyDrawWait, resetWait)
	}
}
