package client

// PrivateDir returns tmx's directory that only this user can read and
// write, creating it with mode 0700: $XDG_RUNTIME_DIR/tmx, else
// $TMPDIR/tmx-UID. It holds the cursor key and, for --host, ssh's shared
// connections. Errors: config_error when it cannot be made, or is not a
// private directory of this user.
func PrivateDir(getenv func(string) string) (string, error) { return privateDir(getenv) }
