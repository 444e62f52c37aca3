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
