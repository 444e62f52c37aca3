//go:build linux

package station_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A station started on a config.toml an earlier version wrote (every
// default set, the old "5 minutes" nudge) migrates it once: its log says
// which keys it commented out, and the next start neither rewrites the
// file nor logs it again.
func TestOldConfigIsMigratedOnceWithALogLine(t *testing.T) {
	t.Parallel()
	old, err := os.ReadFile(filepath.Join("..", "..", "supervisor", "config", "testdata", "config-before-live-defaults.toml"))
	if err != nil {
		t.Fatal(err)
	}
	home := rig.WriteConfig(t, string(old))
	s := rig.StartOn(t, home)
	log := s.Log.String()
	if !strings.Contains(log, "config.toml migrated to live defaults") || !strings.Contains(log, "defaults.idle_window") {
		t.Errorf("the station's log does not say what it migrated:\n%s", rig.Tail(log, 4000))
	}
	s.Stop()
	migrated, _ := os.ReadFile(filepath.Join(home, "config.toml"))
	if !strings.Contains(string(migrated), `# idle_window = "5m"`) {
		t.Fatalf("config.toml was not migrated:\n%s", migrated)
	}

	again := rig.StartOn(t, home)
	if strings.Contains(again.Log.String(), "migrated") {
		t.Errorf("the second start migrated again:\n%s", rig.Tail(again.Log.String(), 4000))
	}
	again.Stop()
	if now, _ := os.ReadFile(filepath.Join(home, "config.toml")); string(now) != string(migrated) {
		t.Errorf("the second start rewrote config.toml")
	}
}
