package client

// SetInputBurst makes tmx deliver text in pieces of at most n bytes, as
// it does on macOS, until the returned function puts the limit back.
func SetInputBurst(n int) (restore func()) {
	old := inputBurst
	inputBurst = n
	return func() { inputBurst = old }
}
