package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

// The audit trail goes only to a regular file of this user, mode 0600: a
// symbolic link is not followed (its target is not created), a file with
// a wider mode is narrowed, and another user's file is refused.
func TestAuditFileIsPrivate(t *testing.T) {
	dir := t.TempDir()
	refused := func(path, what string) {
		t.Helper()
		_, _, err := openAudit(path, nil)
		if te := tmxerr.As(err); err == nil || te.Code != tmxerr.Usage || te.Hint == "" {
			t.Errorf("%s: %v", what, err)
		}
	}

	target := filepath.Join(dir, "elsewhere")
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink(target, link)
	refused(link, "a symbolic link")
	if _, err := os.Lstat(target); err == nil {
		t.Error("the link was followed and its target created")
	}

	wide := filepath.Join(dir, "wide.jsonl")
	os.WriteFile(wide, nil, 0o666)
	os.Chmod(wide, 0o666)
	w, closeAudit, err := openAudit(wide, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("{}\n"))
	closeAudit()
	if st, _ := os.Stat(wide); st.Mode().Perm() != 0o600 {
		t.Errorf("an audit file of mode 0666 kept mode %v", st.Mode().Perm())
	}

	fresh := filepath.Join(dir, "fresh.jsonl")
	if _, closeAudit, err := openAudit(fresh, nil); err != nil {
		t.Fatal(err)
	} else {
		closeAudit()
	}
	if st, _ := os.Stat(fresh); st.Mode().Perm() != 0o600 {
		t.Errorf("a new audit file has mode %v", st.Mode().Perm())
	}

	refused(dir, "a directory")
	if os.Getuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	theirs := filepath.Join(dir, "theirs.jsonl")
	os.WriteFile(theirs, nil, 0o666)
	os.Chown(theirs, 65534, 65534)
	refused(theirs, "another user's file")
	if b, _ := os.ReadFile(theirs); strings.TrimSpace(string(b)) != "" {
		t.Errorf("another user's file was written: %q", b)
	}
}
