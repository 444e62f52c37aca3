//go:build cgo

package tray

import (
	"os"
	"path/filepath"
	"testing"

	fyneapp "fyne.io/fyne/v2/app"

	"github.com/buildstation/buildstation/app"
	"github.com/buildstation/buildstation/supervisor"
)

// The tray process reads the notification settings from the file the
// dashboard's Fyne app keeps them in: the path must be Fyne's own.
func TestPrefsPathIsFynes(t *testing.T) {
	// Not t.TempDir: Fyne's preference watcher makes its folder again
	// as the test ends, and TempDir's cleanup fails on what appears.
	dir, err := os.MkdirTemp("", "bs-prefs-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	t.Setenv("XDG_CONFIG_HOME", dir)
	const id = "dev.buildstation.test-prefs"
	a := fyneapp.NewWithID(id)
	want := filepath.Join(a.Storage().RootURI().Path(), "preferences.json")
	p := fynePrefs(id)
	if p.path != want {
		t.Fatalf("the tray reads %s; Fyne keeps the preferences in %s", p.path, want)
	}
	if !app.NoticeWanted(p.bool, supervisor.NoticeNudge) {
		t.Error("with no file, a notice kind should be on")
	}
	if err := os.MkdirAll(filepath.Dir(p.path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.path, []byte(`{"notify.nudge":false,"notify.block":true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if app.NoticeWanted(p.bool, supervisor.NoticeNudge) || !app.NoticeWanted(p.bool, supervisor.NoticeBlock) {
		t.Error("the tray does not read the settings the dashboard saved")
	}
}
