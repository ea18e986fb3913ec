package remote_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// tmx never accepts a host key, even under a user configuration that
// would (StrictHostKeyChecking accept-new): the call fails with
// host_key_unknown and known_hosts gains nothing.
func TestHostKeyNeverAccepted(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	dir := t.TempDir()
	known := filepath.Join(dir, "known_hosts")
	os.WriteFile(known, nil, 0o600)
	conf, _ := os.ReadFile(filepath.Join(r.sshd.Dir, "ssh_config"))
	conf = bytes.ReplaceAll(conf, []byte(filepath.Join(r.sshd.Dir, "known_hosts")), []byte(known))
	conf = bytes.ReplaceAll(conf, []byte("StrictHostKeyChecking yes"), []byte("StrictHostKeyChecking accept-new"))
	os.WriteFile(filepath.Join(dir, "ssh_config"), conf, 0o600)
	wrapper := filepath.Join(dir, "ssh-accept-new")
	os.WriteFile(wrapper, []byte(fmt.Sprintf("#!/bin/sh\nexec ssh -F '%s' \"$@\"\n", filepath.Join(dir, "ssh_config"))), 0o700)

	res := r.tmx("", []string{"TMX_SSH=" + wrapper}, "--host", r.host, "--json", "ls")
	if d := res.errDoc(t); res.code == 0 || errCode(d) != "host_key_unknown" {
		t.Errorf("under accept-new: exit %d, error %v, stdout %q", res.code, d, res.stdout)
	}
	if b, _ := os.ReadFile(known); len(b) != 0 {
		t.Errorf("known_hosts gained a key: %q", b)
	}
}
