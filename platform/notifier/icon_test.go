//go:build linux

package notifier

import (
	"os"
	"path/filepath"
	"testing"
)

// With no cache folder of the user's own (no HOME, no XDG_CACHE_HOME: a
// bare service environment), the icon is not written into the shared temp
// folder, where another local user could have put a symlink at its path
// and had the station overwrite any file of the user's with it.
func TestIconNeverInTheSharedTempFolder(t *testing.T) {
	tmp := t.TempDir()
	victim := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(victim, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(tmp, "BuildStation"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(tmp, "BuildStation", "notify-icon.png")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	if got := iconFile([]byte("\x89PNG icon")); got != "" {
		t.Errorf("iconFile wrote %s with no cache folder of the user's; want none", got)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the file a planted symlink named now holds %q", b)
	}
}
