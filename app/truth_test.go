package app

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/theme"
)

// The tray's Quit says what quitting does: the station keeps running only
// while there is one.
func TestQuitLabelFollowsTheStation(t *testing.T) {
	quit := func(s Snapshot) string {
		for _, l := range TrayLines(s) {
			if l.Action == ActQuit {
				return l.Label
			}
		}
		return ""
	}
	if got := quit(Snapshot{Connected: true}); got != "Quit tray (station keeps running)" {
		t.Errorf("with a station, Quit says %q", got)
	}
	if got := quit(Snapshot{Connected: false, Err: "connection refused"}); got != "Quit tray" {
		t.Errorf("with the station down, Quit says %q, want no word of a station running", got)
	}
}

// A card whose agent asks offers no Nudge (the agent waits on a person,
// not on a nudge), and Deny does not wear Cancel's icon.
func TestAskingCardOffersNoNudge(t *testing.T) {
	fake := newFake()
	d := openFullBoard(t, fake)
	if got := cardActions(t, d.win, cardOf(t, d, "t6")); slices.Contains(got, "Nudge now") {
		t.Errorf("the asking card offers Nudge now: %q", got)
	}
	primary, more := d.actions(d.u.snap.Tasks[len(d.u.snap.Tasks)-1], CardFor(d.u.snap.Tasks[len(d.u.snap.Tasks)-1], &d.u.snap.Sessions[len(d.u.snap.Sessions)-1], t0))
	icons := map[string]string{}
	for _, a := range append(more, *primary) {
		if a.icon != nil {
			icons[a.label] = a.icon.Name()
		}
	}
	if icons["Deny…"] == "" || icons["Deny…"] == theme.CancelIcon().Name() {
		t.Errorf("Deny wears icon %q, Cancel's", icons["Deny…"])
	}
}

// Notification settings take effect as they are ticked: one button
// closes the dialog, not a Done beside a Close.
func TestNotificationSettingsHaveOneButton(t *testing.T) {
	u := newTestUI(t, newFake(), t0)
	u.Do(MenuLine{Action: ActSettings})
	defer u.dash.hide()
	u.acts.Wait() // the Phone section's read of the station's [phone] table
	got := texts(u.dash.win.Canvas().Overlays().Top())
	if !slices.Contains(got, "Close") || slices.Contains(got, "Done") {
		t.Errorf("the Notifications dialog's buttons: %q, want Close alone", got)
	}
}
