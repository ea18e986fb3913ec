package client

import (
	"context"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/tmxerr"
)

// Split splits the pane paneID and returns the new pane once its program
// is ready.
func (c *Client) Split(ctx context.Context, paneID string, o SpawnOptions) (*Spawned, error) {
	if err := checkSpawn(&o); err != nil {
		return nil, err
	}
	args := []string{"split-window", "-d", "-P", "-F", FormatArg, "-t", paneID}
	if o.Dir == "" {
		// Without -c tmux starts the pane in the tmux client's directory,
		// which is tmx's, not the split pane's.
		args = append(args, "-c", "#{pane_current_path}")
	}
	if o.Horizontal {
		args = append(args, "-h")
	} else {
		args = append(args, "-v")
	}
	if o.Before {
		args = append(args, "-b")
	}
	if o.Size != "" {
		if err := checkSize(o.Size); err != nil {
			return nil, err
		}
		args = append(args, "-l", o.Size)
	}
	return c.spawn(ctx, spawnArgs(args, o), o, "", "", false)
}

// checkSize checks a split's size: a number of cells (at least 1) or a
// percentage of the pane split (1% to 99%).
func checkSize(s string) error {
	digits, percent := strings.CutSuffix(s, "%")
	n, err := strconv.Atoi(digits)
	switch {
	case err != nil:
		return tmxerr.Errorf(tmxerr.InvalidArgument, "size %q is not a number of cells or a percentage", s).
			WithHint("use e.g. 20 or 30%%")
	case percent && (n < 1 || n > 99):
		return tmxerr.Errorf(tmxerr.InvalidArgument, "size %s is out of range: a percentage is from 1%% to 99%% of the pane split", s).
			WithHint("use e.g. 30%%, or a number of cells")
	case n < 1:
		return tmxerr.Errorf(tmxerr.InvalidArgument, "size %s is out of range: a number of cells is at least 1", s).
			WithHint("use e.g. 20, or a percentage such as 30%%")
	}
	return nil
}
