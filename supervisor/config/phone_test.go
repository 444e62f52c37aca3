package config

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// A [phone] table is read with its defaults, and each mistake is one
// sentence naming the key and what to write.
func TestPhoneTable(t *testing.T) {
	cfg, err := Parse("/h/config.toml", []byte("[phone]\nservice = \"ntfy\"\nurl = \"https://ntfy.example/\"\ntopic = \"builds-k3x9q\"\nquiet = \"23:00-07:00\"\nquiet_kinds = [\"permission\"]\n"), Platform{})
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Phone
	if !p.Enabled() || p.URL != "https://ntfy.example" || p.ReplyTopic() != "builds-k3x9q-reply" ||
		!slices.Equal(p.Kinds, DefaultPhoneKinds) || p.Quiet.String() != "23:00-07:00" || !slices.Equal(p.QuietKinds, []string{"permission"}) {
		t.Errorf("read %+v", p)
	}
	if cfg, _ := Parse("/h/config.toml", nil, Platform{}); cfg.Phone.Enabled() {
		t.Error("no [phone] table forwards notices")
	}
	for text, want := range map[string]string{
		"service = \"pager\"\nurl = \"https://x\"\n":                                     `"pager" is not a service`,
		"service = \"ntfy\"\nurl = \"https://x\"\n":                                      "phone.topic: is missing",
		"service = \"ntfy\"\ntopic = \"a\"\n":                                            "phone.url: is missing",
		"service = \"ntfy\"\nurl = \"ftp://x\"\ntopic = \"a\"\n":                         "is not an http(s) URL",
		"service = \"ntfy\"\nurl = \"https://x\"\ntopic = \"a b\"\n":                     "is not an ntfy topic",
		"service = \"ntfy\"\nurl = \"https://x\"\ntopic = \"a\"\nkinds = [\"nudge\"]\n":  `"nudge" is not a kind of notice`,
		"service = \"ntfy\"\nurl = \"https://x\"\ntopic = \"a\"\nquiet = \"11pm-7am\"\n": `write the hours as "HH:MM-HH:MM"`,
		"service = \"webhook\"\nurl = \"https://x\"\ntopic = \"a\"\n":                    "phone.topic: is for ntfy",
		"service = \"webhook\"\nurl = \"https://x\"\nshape = \"teams\"\n":                `"teams" is not a webhook shape`,
		"service = \"ntfy\"\nurl = \"https://x\"\ntopic = \"a\"\ntoken = \"tk_x\"\n":     "phone.token: unknown key",
	} {
		_, err := Parse("/h/config.toml", []byte("[phone]\n"+text), Platform{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

// Quiet hours across midnight, and where they end.
func TestQuietHours(t *testing.T) {
	q, err := ParseQuiet("23:00-07:00")
	if err != nil {
		t.Fatal(err)
	}
	at := func(h, m int) time.Time { return time.Date(2026, 12, 5, h, m, 0, 0, time.UTC) }
	for _, c := range []struct {
		t    time.Time
		in   bool
		ends time.Time
	}{
		{at(22, 59), false, at(22, 59)},
		{at(23, 0), true, at(7, 0).AddDate(0, 0, 1)},
		{at(3, 0), true, at(7, 0)},
		{at(7, 0), false, at(7, 0)},
	} {
		if q.In(c.t) != c.in || !q.Ends(c.t).Equal(c.ends) {
			t.Errorf("%s: in %v ends %s; want %v, %s", c.t, q.In(c.t), q.Ends(c.t), c.in, c.ends)
		}
	}
	day, _ := ParseQuiet("12:30-13:00")
	if !day.In(at(12, 45)) || day.In(at(13, 0)) || day.Ends(at(12, 45)) != at(13, 0) {
		t.Error("a span within the day")
	}
}
