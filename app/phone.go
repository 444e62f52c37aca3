package app

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// phoneForm is the Notification settings' Phone section: config.toml's
// [phone] table as a form — the service, its server and topic, where its
// token comes from, which kinds go out, quiet hours and what still goes
// out in them — with Save and a Test button. The station checks the form
// as it checks the file: Save writes it (POST /v1/phone/settings), Test
// sends one real notice through it (POST /v1/phone/test); the section
// shows what the service answered, or the one sentence that says what to
// fix (nothing saved).
type phoneForm struct {
	service    *widget.Select
	server     *widget.Entry
	topic      *widget.Entry
	shape      *widget.Select
	tokenEnv   *widget.Entry
	kinds      *widget.CheckGroup
	quiet      *widget.Entry
	quietKinds *widget.CheckGroup
	answer     *widget.Label
	saveBtn    *widget.Button
	testBtn    *widget.Button

	// loaded is the table as the station last said it: the keys the form
	// does not show (projects) are saved as they were.
	loaded map[string]any
	// form holds the section; refreshed when fields turn on or off, so
	// their labels follow (a form draws a disabled field's label grey).
	form *widget.Form
}

// phoneOff is the service choice that removes the [phone] table.
const phoneOff = "Off"

func newPhoneForm() *phoneForm {
	f := &phoneForm{
		service:    widget.NewSelect([]string{phoneOff, apitype.PhoneNtfy, apitype.PhoneWebhook}, nil),
		server:     widget.NewEntry(),
		topic:      widget.NewEntry(),
		shape:      widget.NewSelect(apitype.PhoneShapes, nil),
		tokenEnv:   widget.NewEntry(),
		kinds:      widget.NewCheckGroup(apitype.PhoneKinds, nil),
		quiet:      widget.NewEntry(),
		quietKinds: widget.NewCheckGroup(apitype.PhoneKinds, nil),
		answer:     widget.NewLabel(""),
	}
	f.kinds.Horizontal, f.quietKinds.Horizontal = true, true
	f.server.SetPlaceHolder("https://ntfy.sh")
	f.topic.SetPlaceHolder("a topic nobody guesses")
	f.tokenEnv.SetPlaceHolder("NTFY_TOKEN (empty: the keychain's, or none)")
	f.quiet.SetPlaceHolder("23:00-07:00 (empty: never quiet)")
	f.answer.Wrapping = fyne.TextWrapWord
	f.service.OnChanged = func(string) { f.fit() }
	f.fill(nil)
	return f
}

// fill shows table t (nil: no [phone] table).
func (f *phoneForm) fill(t map[string]any) {
	f.loaded = t
	str := func(k string) string { s, _ := t[k].(string); return s }
	list := func(k string, def []string) []string {
		v, ok := t[k]
		if !ok {
			return def
		}
		var out []string
		if l, ok := v.([]any); ok {
			for _, x := range l {
				out = append(out, fmt.Sprint(x))
			}
		}
		return out
	}
	svc := str("service")
	if svc == "" {
		svc = phoneOff
	}
	f.service.SetSelected(svc)
	f.server.SetText(str("url"))
	f.topic.SetText(str("topic"))
	shape := str("shape")
	if shape == "" {
		shape = "json"
	}
	f.shape.SetSelected(shape)
	f.tokenEnv.SetText(str("token_env"))
	f.kinds.SetSelected(list("kinds", apitype.DefaultPhoneKinds))
	f.quiet.SetText(str("quiet"))
	f.quietKinds.SetSelected(list("quiet_kinds", nil))
	f.fit()
}

// fit turns on the fields the chosen service uses.
func (f *phoneForm) fit() {
	svc := f.service.Selected
	for _, w := range []fyne.Disableable{f.server, f.tokenEnv, f.kinds, f.quiet, f.quietKinds} {
		enable(w, svc != phoneOff)
	}
	enable(f.topic, svc == apitype.PhoneNtfy)
	enable(f.shape, svc == apitype.PhoneWebhook)
	if f.testBtn != nil {
		enable(f.testBtn, svc != phoneOff)
	}
	if f.form != nil {
		f.form.Refresh()
	}
}

func enable(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}

// table is the form as a [phone] table's keys, for the station to check;
// nil when the service is Off.
func (f *phoneForm) table() map[string]any {
	svc := f.service.Selected
	if svc == phoneOff || svc == "" {
		return nil
	}
	t := map[string]any{}
	// What the form does not show is kept as it was.
	if f.loaded != nil {
		for _, k := range []string{"projects"} {
			if v, ok := f.loaded[k]; ok {
				t[k] = v
			}
		}
	}
	t["service"], t["url"] = svc, strings.TrimSpace(f.server.Text)
	if svc == apitype.PhoneNtfy {
		t["topic"] = strings.TrimSpace(f.topic.Text)
	}
	if svc == apitype.PhoneWebhook && f.shape.Selected != "" && f.shape.Selected != "json" {
		t["shape"] = f.shape.Selected
	}
	if e := strings.TrimSpace(f.tokenEnv.Text); e != "" {
		t["token_env"] = e
	}
	if kinds := f.kinds.Selected; !slices.Equal(ordered(kinds), apitype.DefaultPhoneKinds) {
		t["kinds"] = anyList(ordered(kinds))
	}
	if q := strings.TrimSpace(f.quiet.Text); q != "" {
		t["quiet"] = q
	}
	if qk := ordered(f.quietKinds.Selected); len(qk) > 0 {
		t["quiet_kinds"] = anyList(qk)
	}
	return t
}

// ordered is kinds in apitype.PhoneKinds' order, as the table writes them.
func ordered(kinds []string) []string {
	out := []string{}
	for _, k := range apitype.PhoneKinds {
		if slices.Contains(kinds, k) {
			out = append(out, k)
		}
	}
	return out
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// load reads the station's [phone] table into the form.
func (f *phoneForm) load(ctx context.Context, cl Client) {
	t, err := cl.PhoneSettings(ctx)
	fyne.Do(func() {
		if err != nil {
			f.answer.SetText("Could not read the phone settings: " + err.Error())
			return
		}
		f.fill(t)
		f.answer.SetText("")
		if f.saveBtn != nil {
			f.saveBtn.Enable()
		}
	})
}

// save has the station check the form and write it to config.toml; the
// section says what was saved, or the station's one sentence (and
// nothing is saved).
func (f *phoneForm) save(ctx context.Context, cl Client, t map[string]any) {
	saved, err := cl.SetPhoneSettings(ctx, t)
	fyne.Do(func() {
		if err != nil {
			f.answer.SetText("Not saved: " + err.Error())
			return
		}
		f.loaded = maps.Clone(saved)
		if saved == nil {
			f.answer.SetText("Saved: no notices go to a phone.")
			return
		}
		where := fmt.Sprint(saved["url"])
		if topic, ok := saved["topic"].(string); ok {
			where += ", topic " + topic
		}
		f.answer.SetText(fmt.Sprintf("Saved: notices go to %s (%s).", saved["service"], where))
	})
}

// test has the station check the form and send a test notice; the answer
// (or the refusal) is shown under the buttons.
func (f *phoneForm) test(ctx context.Context, cl Client, t map[string]any) {
	res, err := cl.PhoneTest(ctx, t)
	text := ""
	if err != nil {
		text = "Not sent: " + err.Error()
	} else {
		text = "Sent through " + res.Service + ": " + res.Answer
	}
	fyne.Do(func() { f.answer.SetText(text) })
}

// items are the section's rows; save and test run the buttons' calls
// (off Fyne's goroutine) with the form as a table.
func (f *phoneForm) items(save, test func(t map[string]any)) []*widget.FormItem {
	f.saveBtn = widget.NewButton("Save phone settings", func() {
		f.answer.SetText("Saving…")
		save(f.table())
	})
	f.saveBtn.Importance = widget.HighImportance
	f.testBtn = widget.NewButton("Send a test notice", func() {
		f.answer.SetText("Sending…")
		test(f.table())
	})
	f.fit()
	heading := widget.NewLabelWithStyle("Phone (config.toml's [phone])", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return []*widget.FormItem{
		widget.NewFormItem("", heading),
		widget.NewFormItem("Service", f.service),
		widget.NewFormItem("Server URL", f.server),
		widget.NewFormItem("Topic", f.topic),
		widget.NewFormItem("Webhook shape", f.shape),
		widget.NewFormItem("Token variable", f.tokenEnv),
		widget.NewFormItem("Send", f.kinds),
		widget.NewFormItem("Quiet hours", f.quiet),
		widget.NewFormItem("In quiet hours", f.quietKinds),
		widget.NewFormItem("", container.NewHBox(f.saveBtn, f.testBtn)),
		widget.NewFormItem("", f.answer),
	}
}
