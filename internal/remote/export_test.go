package remote

import "time"

// SetTiming sets, for the tests, how long a command on the host has after
// SIGTERM (kill) and how long a cancelled call waits for its command's
// last words (cancel); zero keeps a value. Call it before any call.
func SetTiming(kill, cancel time.Duration) {
	if kill > 0 {
		killGrace = kill
	}
	if cancel > 0 {
		graceAfterCancel = cancel
	}
}
