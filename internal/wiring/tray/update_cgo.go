//go:build cgo

package tray

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/buildstation/buildstation/app"
	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/update"
	"github.com/buildstation/buildstation/platform/browser"
	"github.com/buildstation/buildstation/supervisor/config"
)

// lookInterval is how often the tray looks whether a check is due: the
// daily check keeps the time of its last ask in the home, so a look
// within the day only reads that file, and a laptop that slept past the
// day asks within the hour.
const lookInterval = time.Hour

// checkUpdates shows "Update available" in the menu when the releases
// API has a newer version than this build: at most one ask a day, none
// when update_check (config.toml) or the dashboard's setting is off, and
// none under the e2e rig (BUILDSTATION_UPDATE_URL=off). Nothing is
// downloaded.
func (t *tray) checkUpdates(ctx context.Context, home string) {
	daily := update.Daily{Checker: update.New(cli.Version), File: filepath.Join(home, "update.json"), Now: time.Now, Log: t.log}
	tick := time.NewTicker(lookInterval)
	defer tick.Stop()
	for {
		var note app.UpdateNote
		if t.updateWanted(home) {
			if rel, ok := daily.Check(ctx); ok {
				note = app.UpdateNote{Version: rel.Version, URL: rel.URL}
			}
		}
		t.mu.Lock()
		changed := t.update != note
		t.update = note
		t.mu.Unlock()
		if changed {
			t.draw()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// updateWanted: both config.toml's update_check and the dashboard's
// setting are on (a config.toml that cannot be read leaves it on).
func (t *tray) updateWanted(home string) bool {
	if !t.prefs.bool(app.PrefUpdateCheck, true) {
		return false
	}
	path := filepath.Join(home, config.FileConfig)
	data, err := os.ReadFile(path)
	if err != nil {
		return true
	}
	cfg, err := config.Parse(path, data, config.Platform{})
	return err != nil || cfg.UpdateCheck
}

// openLink opens a release's page in the browser.
func (t *tray) openLink(link string) {
	if err := browser.Open(link); err != nil {
		t.log.Warn("open the release's page", "err", err)
	}
}
