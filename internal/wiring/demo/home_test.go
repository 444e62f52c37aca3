//go:build unix

package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The default demo home is in the user's own cache folder, not the shared
// temp folder where another user could make it first.
func TestDemoHomeIsTheUsersOwn(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", t.TempDir()) // macOS: ~/Library/Caches
	t.Setenv("BUILDSTATION_HOME", "")
	home, err := Prepare("", "/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(home, os.TempDir()+string(filepath.Separator)+"buildstation") {
		t.Errorf("demo home %s is in the shared temp folder", home)
	}
	want, _ := os.UserCacheDir()
	if !strings.HasPrefix(home, want+string(filepath.Separator)) {
		t.Errorf("demo home %s is not under the user's cache folder %s", home, want)
	}
	st, err := os.Stat(home)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o700 {
		t.Errorf("demo home mode %o, want 0700", st.Mode().Perm())
	}
}

// A demo home that another user could have made (open to all) is refused,
// and nothing in it is touched.
func TestDemoRefusesAnOpenHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "buildstation-demo")
	if err := os.Mkdir(home, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, marker), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(home, "station.json")
	if err := os.WriteFile(planted, []byte(`{"url":"http://127.0.0.1:9"}`), 0o666); err != nil {
		t.Fatal(err)
	}
	_, err := Prepare(home, "/bin/true")
	if err == nil || !strings.Contains(err.Error(), "open to other users") {
		t.Fatalf("Prepare on a 0777 home: %v, want a refusal", err)
	}
	if _, err := os.Stat(planted); err != nil {
		t.Errorf("the refused home was changed: %v", err)
	}
}
