package app

import (
	"context"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// Preference keys for notifications; every kind is on until turned off.
const (
	PrefNotifyNudge      = "notify.nudge"
	PrefNotifyBlock      = "notify.block"
	PrefNotifyPermission = "notify.permission"
	PrefNotifyFinished   = "notify.finished"
	// PrefUpdateCheck: the tray asks once a day whether a newer release
	// exists (with config.toml's update_check; either turns it off).
	PrefUpdateCheck = "update.check"
)

func prefKey(k supervisor.NoticeKind) string {
	switch k {
	case supervisor.NoticeNudge:
		return PrefNotifyNudge
	case supervisor.NoticePermission:
		return PrefNotifyPermission
	case supervisor.NoticeFinished:
		return PrefNotifyFinished
	}
	return PrefNotifyBlock // block and breaker: the queue stopped
}

// NoticeWanted says whether notices of kind k are turned on, read through
// get (a fyne.Preferences' BoolWithFallback, or the tray process's reader
// of the same file): every kind is on until turned off.
func NoticeWanted(get func(key string, fallback bool) bool, k supervisor.NoticeKind) bool {
	return get(prefKey(k), true)
}

// showSettings turns each kind of notification on or off.
func (u *UI) showSettings() {
	p := u.app.Preferences()
	check := func(label, key string) *widget.Check {
		c := widget.NewCheck(label, func(on bool) { p.SetBool(key, on) })
		c.SetChecked(p.BoolWithFallback(key, true))
		return c
	}
	items := []*widget.FormItem{
		widget.NewFormItem("", check("When a silent session is nudged", PrefNotifyNudge)),
		widget.NewFormItem("", check("When a task is blocked (or a project's queue stops)", PrefNotifyBlock)),
		widget.NewFormItem("", check("When a session needs permission", PrefNotifyPermission)),
		widget.NewFormItem("", check("When a task's work is finished (ready to merge)", PrefNotifyFinished)),
		widget.NewFormItem("", check("Check for a newer release once a day", PrefUpdateCheck)),
	}
	phone := newPhoneForm()
	u.phone = phone
	items = append(items, phone.items(
		func(t map[string]any) {
			u.act(nil, "save the phone settings", func(ctx context.Context, cl Client) error { phone.save(ctx, cl, t); return nil })
		},
		func(t map[string]any) {
			u.act(nil, "test the phone", func(ctx context.Context, cl Client) error { phone.test(ctx, cl, t); return nil })
		})...)
	// Each tick takes effect at once, the phone's settings on Save: one
	// button closes the dialog.
	form := widget.NewForm(items...)
	phone.form = form
	dialog.ShowCustom("Notifications", "Close", form, u.dashboardWindow())
	// The form fills in once the station said its [phone] table: opened
	// from the tray, this is often a dashboard process that has not
	// heard from the station yet, so the read waits for its first
	// answer. Until the table is read Save stays off: a form saved
	// before it would remove the table the station has.
	phone.saveBtn.Disable()
	phone.answer.SetText("Reading the phone settings from the station…")
	u.afterConnect(func() {
		u.act(nil, "read the phone settings", func(ctx context.Context, cl Client) error { phone.load(ctx, cl); return nil })
	})
}
