package client

import "time"

// SetInputBurst makes tmx deliver text in pieces of at most n bytes, as
// it does on macOS, until the returned function puts the limit back.
func SetInputBurst(n int) (restore func()) {
	old := inputBurst
	inputBurst = n
	return func() { inputBurst = old }
}

// SetShellBackWait sets shellBackWait for a test that runs alone (not
// in parallel), and returns what restores it.
func SetShellBackWait(d time.Duration) (restore func()) {
	old := shellBackWait
	shellBackWait = d
	return func() { shellBackWait = old }
}
