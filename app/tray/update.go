package tray

import (
	"context"
	"time"

	"github.com/buildstation/buildstation/app"
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
// downloaded. Config.UpdateCheck asks (and reads config.toml); the
// dashboard's setting is read here.
func (t *tray) checkUpdates(ctx context.Context) {
	if t.c.UpdateCheck == nil {
		return
	}
	tick := time.NewTicker(lookInterval)
	defer tick.Stop()
	for {
		var note app.UpdateNote
		if t.prefs.bool(app.PrefUpdateCheck, true) {
			note = t.c.UpdateCheck(ctx)
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

// openLink opens a release's page in the browser.
func (t *tray) openLink(link string) {
	if t.c.OpenURL == nil {
		return
	}
	if err := t.c.OpenURL(link); err != nil {
		t.log.Warn("open the release's page", "err", err)
	}
}
