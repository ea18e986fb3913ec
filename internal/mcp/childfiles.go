package mcp

// The files a tmx child reads its stdin from and writes its stdout and
// stderr to (newCapture): tmx-mcp reads them once the child is done.

import "os"

// tempCapture is a temporary file, unlinked at once: it lives until closed.
func tempCapture(name string) (*os.File, error) {
	f, err := os.CreateTemp("", "tmx-mcp-"+name+"-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return f, nil
}
