//go:build !linux

package mcp

import "os"

func newCapture(name string) (*os.File, error) { return tempCapture(name) }
