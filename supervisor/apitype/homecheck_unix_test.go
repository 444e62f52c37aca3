//go:build unix

package apitype

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckHome(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		mode os.FileMode
		ok   bool
	}{{0o700, true}, {0o755, true}, {0o750, true}, {0o777, false}, {0o770, false}, {0o702, false}} {
		home := filepath.Join(dir, tt.mode.String())
		if err := os.Mkdir(home, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(home, tt.mode); err != nil {
			t.Fatal(err)
		}
		err := CheckHome(home)
		if (err == nil) != tt.ok {
			t.Errorf("CheckHome(mode %o) = %v, want ok %v", tt.mode, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "chmod 700 "+home) {
			t.Errorf("CheckHome(mode %o) = %q, want it to say how to fix it", tt.mode, err)
		}
	}
	if err := CheckHome(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("a home not made yet: %v", err)
	}
}

// The station's own home ends up 0700, whatever umask made it.
func TestSecureHomeTightens(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := SecureHome(home); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(home)
	if st.Mode().Perm() != 0o700 {
		t.Errorf("mode after SecureHome %o, want 0700", st.Mode().Perm())
	}
	if err := os.Chmod(home, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := SecureHome(home); err == nil {
		t.Error("SecureHome made a world-writable home its own instead of refusing it")
	}
}
