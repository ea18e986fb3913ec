package client

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// depthBook is what tmx learnt, per shell binary, of the stack depths at
// which the binary's line editor reads at its top-level prompt (see
// [shellRecord]): the file prompt-depths in tmx's private directory, one
// line per binary, "DEV:INODE:SIZE:MTIME DEPTH[,DEPTH...]", the binary
// named by its file's identity ([tmux.ExeID]) (an upgraded shell is another
// binary, with depths of its own). It lets tmx prove a shell at its prompt
// in a pane it meets for the first time: a pane the user made, whose
// shell tmx never watched.
type depthBook struct {
	path  string
	mu    sync.Mutex
	byExe map[string][]uint64
}

// maxBookBinaries bounds the book: past it, a binary learnt earlier is
// forgotten to make room.
const maxBookBinaries = 64

// loadDepthBook reads the book from tmx's private directory; a book that
// cannot be read is empty, and one in a directory that cannot be used is
// kept in memory only.
func loadDepthBook(dir func() (string, error)) *depthBook {
	b := &depthBook{byExe: map[string][]uint64{}}
	d, err := dir()
	if err != nil {
		return b
	}
	b.path = filepath.Join(d, "prompt-depths")
	data, err := os.ReadFile(b.path)
	if err != nil {
		return b
	}
	for _, line := range strings.Split(string(data), "\n") {
		exe, list, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		var depths []uint64
		for _, f := range strings.Split(list, ",") {
			if n, err := strconv.ParseUint(f, 10, 64); err == nil && n > 0 && len(depths) < maxPromptSPs {
				depths = append(depths, n)
			}
		}
		if len(depths) > 0 {
			b.byExe[exe] = depths
		}
	}
	return b
}

// exeOf names the binary process pid runs, "" when unknown (see
// [tmux.ExeID]).
func exeOf(pid int) string { return tmux.ExeID(pid) }

// of returns the depths known for the binary pid runs.
func (b *depthBook) of(pid int) []uint64 {
	exe := exeOf(pid)
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.byExe[exe])
}

// add merges depths into those of the binary pid runs, and writes the
// book (a new file renamed into place) when it learnt something.
func (b *depthBook) add(pid int, depths []uint64) {
	exe := exeOf(pid)
	if exe == "" || len(depths) == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	known := b.byExe[exe]
	merged := slices.Clone(depths)
	for _, d := range known {
		if !slices.Contains(merged, d) {
			merged = append(merged, d)
		}
	}
	if len(merged) > maxPromptSPs {
		merged = merged[:maxPromptSPs]
	}
	if slices.Equal(merged, known) {
		return
	}
	delete(b.byExe, exe)
	for len(b.byExe) >= maxBookBinaries {
		for k := range b.byExe { // any one: the book is a cache
			delete(b.byExe, k)
			break
		}
	}
	b.byExe[exe] = merged
	if b.path == "" {
		return
	}
	var lines []string
	for k, v := range b.byExe {
		s := make([]string, len(v))
		for i, d := range v {
			s[i] = strconv.FormatUint(d, 10)
		}
		lines = append(lines, k+" "+strings.Join(s, ","))
	}
	sort.Strings(lines)
	tmp := fmt.Sprintf("%s.%d.tmp", b.path, os.Getpid())
	if os.WriteFile(tmp, []byte(strings.Join(lines, "\n")+"\n"), 0o600) == nil {
		if os.Rename(tmp, b.path) != nil {
			os.Remove(tmp)
		}
	}
}
