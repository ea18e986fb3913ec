package client

import "time"

// SetShellBackWait sets shellBackWait for a test that runs alone (not
// in parallel), and returns what restores it.
func SetShellBackWait(d time.Duration) (restore func()) {
	old := shellBackWait
	shellBackWait = d
	return func() { shellBackWait = old }
}
