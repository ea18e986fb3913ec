//go:build !linux

package tmux

import (
	"context"
	"os"
)

// supported: the native client is only built for Linux; elsewhere Do
// returns ErrUnsupported, which matches ErrUseExec.
const supported = false

func dial(context.Context, string) (conn, error) { return nil, ErrUnsupported }

// TTYName returns "" on this platform, where the native client is not
// supported.
func TTYName(*os.File) string { return "" }
