package mcp

import "time"

// SetTiming sets, for the tests, how often a waiting call reports
// progress and how long a cancelled child has after SIGTERM; zero keeps
// a value. Call it before any server starts.
func SetTiming(progress, kill time.Duration) {
	if progress > 0 {
		progressEvery = progress
	}
	if kill > 0 {
		killGrace = kill
	}
}

// ProgressEvery is how often a waiting call reports progress.
func ProgressEvery() time.Duration { return progressEvery }
