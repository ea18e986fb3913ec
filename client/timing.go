package client

import "time"

// Timing is how long tmx gives a shell or a program to react where it
// waits for one. The defaults ([DefaultTiming]) are tmx's behaviour; only
// tests change them, to spend less time waiting them out.
type Timing struct {
	// PromptSettle bounds how long a run waits for a held pane's shell to
	// be back at its prompt before it refuses the pane as busy (2 s).
	PromptSettle time.Duration
	// ResetWait bounds the wait for a shell to start its new line after
	// its line editor was reset (2 s).
	ResetWait time.Duration
	// SubmitWatch is how long input with Enter watches the pane for a
	// visible change before it says submitted: unknown (600 ms).
	SubmitWatch time.Duration
	// PasteBracketWait bounds how long a paste holding a newline waits for
	// its program to enable bracketed paste (2 s).
	PasteBracketWait time.Duration
	// ReadyShellWait bounds the wait for a new shell's first prompt (10 s);
	// ReadyDrawWait for another new program's first output (2 s).
	ReadyShellWait, ReadyDrawWait time.Duration
	// ProgramReadyWait bounds each wait of input to a program that reads
	// keys: for it to be ready for the text, to show it took the text
	// before Enter, and to show it took the Enter (3 s).
	ProgramReadyWait time.Duration
}

var defaultTiming = CurrentTiming()

// DefaultTiming returns tmx's timing.
func DefaultTiming() Timing { return defaultTiming }

// CurrentTiming returns the timing in force.
func CurrentTiming() Timing {
	return Timing{
		PromptSettle: promptSettle, ResetWait: resetWait,
		SubmitWatch: submitWatch, PasteBracketWait: pasteBracketWait,
		ReadyShellWait: readyShellWait, ReadyDrawWait: readyDrawWait,
		ProgramReadyWait: programReadyWait,
	}
}

// SetTiming replaces the timing for the whole process; zero fields keep
// theirs. It is for tests, called before any call starts (it is not safe
// to call while one runs); tmx itself never calls it.
func SetTiming(t Timing) {
	set := func(v *time.Duration, d time.Duration) {
		if d > 0 {
			*v = d
		}
	}
	set(&promptSettle, t.PromptSettle)
	set(&resetWait, t.ResetWait)
	set(&submitWatch, t.SubmitWatch)
	set(&pasteBracketWait, t.PasteBracketWait)
	set(&readyShellWait, t.ReadyShellWait)
	set(&readyDrawWait, t.ReadyDrawWait)
	set(&programReadyWait, t.ProgramReadyWait)
}
