package wiring

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor/config"
)

// A service command only reads the home: asking a home with no config
// for its stop_grace writes no first-run config.toml there (the MSI's
// uninstall runs `service uninstall`, which left one behind).
func TestStopGraceWritesNothing(t *testing.T) {
	home := filepath.Join(t.TempDir(), "BuildStation")
	if got := stopGrace(home); got != config.DefaultStopGrace {
		t.Errorf("stop_grace of a home with no config: %v, want the default %v", got, config.DefaultStopGrace)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("asking for stop_grace made the home: %v", err)
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, config.FileConfig), []byte("stop_grace = \"45s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := stopGrace(home); got != 45*time.Second {
		t.Errorf("stop_grace = %v, want the config's 45s", got)
	}
}

// TestWindowsFaces: from whichever executable `service install` runs in,
// the logon task, the Run key and the link handler get the GUI face and
// the SCM service the whole program's console face. The MSI installs the
// light buildstation.exe (which hands `service` over to
// buildstation-app.exe), buildstation-app.exe and buildstationw.exe;
// releases before it installed buildstation.exe and buildstationw.exe,
// both the whole program; `go build` makes one exe.
func TestWindowsFaces(t *testing.T) {
	layout := func(names ...string) string {
		dir := t.TempDir()
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	three := layout("buildstation.exe", "buildstation-app.exe", "buildstationw.exe")
	two := layout("buildstation.exe", "buildstationw.exe")
	appOnly := layout("buildstation-app.exe", "buildstationw.exe")
	lone := layout("buildstation.exe")
	renamed := layout("bs.exe", "bsw.exe", "bs-app.exe")
	for _, c := range []struct {
		dir, self, gui, console string
	}{
		{three, "buildstation-app.exe", "buildstationw.exe", "buildstation-app.exe"},
		{three, "buildstationw.exe", "buildstationw.exe", "buildstation-app.exe"},
		{three, "buildstation.exe", "buildstationw.exe", "buildstation-app.exe"},
		{appOnly, "buildstation-app.exe", "buildstationw.exe", "buildstation-app.exe"},
		{appOnly, "buildstationw.exe", "buildstationw.exe", "buildstation-app.exe"},
		{two, "buildstation.exe", "buildstationw.exe", "buildstation.exe"},
		{two, "buildstationw.exe", "buildstationw.exe", "buildstation.exe"},
		{lone, "buildstation.exe", "buildstation.exe", "buildstation.exe"},
		{renamed, "bs-app.exe", "bsw.exe", "bs-app.exe"},
		{renamed, "bsw.exe", "bsw.exe", "bs-app.exe"},
	} {
		self := filepath.Join(c.dir, c.self)
		gui, console := windowsFaces(self)
		if want := filepath.Join(c.dir, c.gui); gui != want {
			t.Errorf("from %s: gui %s, want %s", c.self, gui, want)
		}
		if want := filepath.Join(c.dir, c.console); console != want {
			t.Errorf("from %s: console %s, want %s", c.self, console, want)
		}
	}
}
