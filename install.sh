#!/bin/sh
# install.sh: build tmx and tmx-mcp and install them into ${PREFIX:-$HOME/.local}/bin.
#
# It checks for tmux (3.2a or newer) and installs it with the system package
# manager when it is missing and that is possible (apt-get, dnf, yum, pacman,
# apk, zypper, brew). It needs Go 1.26 or newer to build.
set -eu

prefix=${PREFIX:-$HOME/.local}
bindir=$prefix/bin
here=$(cd "$(dirname "$0")" && pwd)

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"
	elif command -v sudo >/dev/null 2>&1; then sudo "$@"
	else return 1
	fi
}

install_tmux() {
	if command -v apt-get >/dev/null 2>&1; then
		as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux
	elif command -v dnf >/dev/null 2>&1; then as_root dnf install -y tmux
	elif command -v yum >/dev/null 2>&1; then as_root yum install -y tmux
	elif command -v pacman >/dev/null 2>&1; then as_root pacman -S --noconfirm tmux
	elif command -v apk >/dev/null 2>&1; then as_root apk add tmux
	elif command -v zypper >/dev/null 2>&1; then as_root zypper --non-interactive install tmux
	elif command -v brew >/dev/null 2>&1; then brew install tmux
	else return 1
	fi
}

if ! command -v tmux >/dev/null 2>&1; then
	say "tmux is not installed; installing it with the system package manager"
	install_tmux || die "could not install tmux; install tmux 3.2a or newer yourself, then run this again"
fi
tmux_version=$(tmux -V | sed -n 's/^tmux \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
case "$tmux_version" in
"") say "warning: cannot read the tmux version from '$(tmux -V)'; tmx needs 3.2a or newer" ;;
[012].* | 3.[01]) die "$(tmux -V) is too old: tmx needs tmux 3.2a or newer" ;;
esac
say "using $(tmux -V) at $(command -v tmux)"

command -v go >/dev/null 2>&1 || die "Go is not installed (https://go.dev/dl/); tmx needs Go 1.26 or newer to build"
go_version=$(go env GOVERSION 2>/dev/null | sed -n 's/^go\([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p')
set -- $go_version
if [ -n "$go_version" ] && { [ "$1" -lt 1 ] || { [ "$1" -eq 1 ] && [ "$2" -lt 26 ]; }; }; then
	die "$(go env GOVERSION) is too old: tmx needs Go 1.26 or newer (https://go.dev/dl/)"
fi

version=$(git -C "$here" describe --tags --always --dirty 2>/dev/null || echo dev)
mkdir -p "$bindir"
cd "$here"
for cmd in tmx tmx-mcp; do
	say "building $cmd"
	go build -trimpath -tags urfave_cli_no_docs -ldflags "-X github.com/tmx-sh/tmx/internal/version.Version=$version" -o "$bindir/$cmd.tmp" "./cmd/$cmd"
	mv -f "$bindir/$cmd.tmp" "$bindir/$cmd"
done
say "installed tmx and tmx-mcp in $bindir"

case ":$PATH:" in
*":$bindir:"*) ;;
*) say "note: $bindir is not on your PATH; add it, e.g.: export PATH=\"$bindir:\$PATH\"" ;;
esac
