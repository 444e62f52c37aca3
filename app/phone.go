package app

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// phoneForm is the Notification settings' Phone section: the service, its
// server and topic, quiet hours, and a Test button. The station checks
// the form as it checks config.toml's [phone] table and sends one real
// notice (POST /v1/phone/test); the section shows what the service
// answered, or what to fix. The table is kept in config.toml
// (docs/phone.md); the form shows how to write it.
type phoneForm struct {
	service *widget.Select
	server  *widget.Entry
	topic   *widget.Entry
	quiet   *widget.Entry
	answer  *widget.Label
}

func newPhoneForm() *phoneForm {
	f := &phoneForm{
		service: widget.NewSelect([]string{"ntfy", "webhook"}, nil),
		server:  widget.NewEntry(),
		topic:   widget.NewEntry(),
		quiet:   widget.NewEntry(),
		answer:  widget.NewLabel(""),
	}
	f.service.SetSelected("ntfy")
	f.server.SetPlaceHolder("https://ntfy.sh")
	f.topic.SetPlaceHolder("a topic nobody guesses")
	f.quiet.SetPlaceHolder("23:00-07:00")
	f.answer.Wrapping = fyne.TextWrapWord
	return f
}

// table is the form as a [phone] table's keys, for the station to check.
func (f *phoneForm) table() map[string]any {
	t := map[string]any{"service": f.service.Selected, "url": strings.TrimSpace(f.server.Text)}
	if f.service.Selected == "ntfy" {
		t["topic"] = strings.TrimSpace(f.topic.Text)
	}
	if q := strings.TrimSpace(f.quiet.Text); q != "" {
		t["quiet"] = q
	}
	return t
}

// test has the station check the form and send a test notice; the answer
// (or the refusal) is shown under the button.
func (f *phoneForm) test(ctx context.Context, cl Client) {
	res, err := cl.PhoneTest(ctx, f.table())
	text := ""
	if err != nil {
		text = "Not sent: " + err.Error()
	} else {
		text = "Sent through " + res.Service + ": " + res.Answer
	}
	fyne.Do(func() { f.answer.SetText(text) })
}

func (f *phoneForm) items(test func()) []*widget.FormItem {
	return []*widget.FormItem{
		widget.NewFormItem("Phone", f.service),
		widget.NewFormItem("Server", f.server),
		widget.NewFormItem("Topic", f.topic),
		widget.NewFormItem("Quiet hours", f.quiet),
		widget.NewFormItem("", widget.NewButton("Send a test notice", test)),
		widget.NewFormItem("", f.answer),
	}
}
