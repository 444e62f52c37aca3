package config

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Phone is the [phone] table: the notices forwarded to a phone through a
// service the user already runs (ntfy, or a webhook), none when Service is
// "" (docs/phone.md). Tokens never live here: TokenEnv names the variable
// that holds one, or the keychain keeps it under the account "phone".
type Phone struct {
	Service  string   // service: "ntfy" or "webhook"; "" forwards nothing
	URL      string   // url: the ntfy server, or the webhook's address
	Topic    string   // topic: ntfy's topic (replies come back on Topic+"-reply")
	TokenEnv string   // token_env: the variable holding the access token
	Shape    string   // shape: a webhook's body, "json", "slack" or "discord"
	Kinds    []string // kinds: which notices go out (PhoneKinds)
	Projects []string // projects: only these projects' notices; none: every project's
	Quiet    Quiet    // quiet: the hours only QuietKinds go out
	// QuietKinds are the kinds that still go out in quiet hours; the
	// others wait for the hours' end.
	QuietKinds []string
}

// The services [phone] forwards to, the kinds of notice it forwards and a
// webhook's shapes (apitype's, which the dashboard offers too).
const (
	PhoneNtfy    = apitype.PhoneNtfy
	PhoneWebhook = apitype.PhoneWebhook
)

var (
	PhoneKinds        = apitype.PhoneKinds
	DefaultPhoneKinds = apitype.DefaultPhoneKinds
	PhoneShapes       = apitype.PhoneShapes
)

// Enabled reports whether notices go to a phone at all.
func (p Phone) Enabled() bool { return p.Service != "" }

// Forwards reports whether kind goes out (its project aside).
func (p Phone) Forwards(kind string) bool { return slices.Contains(p.Kinds, kind) }

// ForProject reports whether a notice of project goes out; a notice of
// no project (the station's own) always does.
func (p Phone) ForProject(project string) bool {
	return len(p.Projects) == 0 || project == "" || slices.Contains(p.Projects, project)
}

// ReplyTopic is the ntfy topic the phone's Allow and Deny post to and the
// station reads.
func (p Phone) ReplyTopic() string { return p.Topic + "-reply" }

// Quiet is a span of the day, local time: From up to To, across midnight
// when To is earlier ("23:00-07:00"). The zero Quiet is never quiet.
type Quiet struct {
	From, To time.Duration // since midnight
	Set      bool
}

// String is the span as config.toml writes it.
func (q Quiet) String() string {
	if !q.Set {
		return ""
	}
	hm := func(d time.Duration) string { return fmt.Sprintf("%02d:%02d", int(d.Hours()), int(d.Minutes())%60) }
	return hm(q.From) + "-" + hm(q.To)
}

// In reports whether t (in its own location) falls in the span.
func (q Quiet) In(t time.Time) bool {
	if !q.Set || q.From == q.To {
		return false
	}
	h, m, s := t.Clock()
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second
	if q.From < q.To {
		return d >= q.From && d < q.To
	}
	return d >= q.From || d < q.To
}

// Ends is the first moment after t that is not in the span; t itself
// when t is not in it.
func (q Quiet) Ends(t time.Time) time.Time {
	if !q.In(t) {
		return t
	}
	y, mo, d := t.Date()
	end := time.Date(y, mo, d, 0, 0, 0, 0, t.Location()).Add(q.To)
	if !end.After(t) {
		end = time.Date(y, mo, d+1, 0, 0, 0, 0, t.Location()).Add(q.To)
	}
	return end
}

// ParseQuiet reads "HH:MM-HH:MM".
func ParseQuiet(s string) (Quiet, error) {
	from, to, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		return Quiet{}, fmt.Errorf("%q is not a span of the day", s)
	}
	f, err1 := clock(from)
	t, err2 := clock(to)
	if err1 != nil || err2 != nil {
		return Quiet{}, fmt.Errorf("%q is not a span of the day", s)
	}
	if f == t {
		return Quiet{}, fmt.Errorf("%q starts where it ends", s)
	}
	return Quiet{From: f, To: t, Set: true}, nil
}

func clock(s string) (time.Duration, error) {
	h, m, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok || len(m) != 2 || len(h) < 1 || len(h) > 2 {
		return 0, fmt.Errorf("not HH:MM")
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, fmt.Errorf("not HH:MM")
	}
	return time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute, nil
}

// topicRe is what ntfy accepts as a topic, less the room "-reply" takes.
// Like every pattern here, it is compiled on first use, not at package
// initialisation, which every CLI call pays for ({1,58} alone is 0.3 ms).
var topicRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-_A-Za-z0-9]{1,58}$`) })

var phoneKeys = strings.Join(keysOf("phone"), ", ")

// phone reads [phone].
func (c *checker) phone(p *Phone, key keyPath, v any) {
	t, ok := c.table(key, v, "[phone]")
	if !ok {
		return
	}
	*p = Phone{Kinds: slices.Clone(DefaultPhoneKinds), Shape: "json"}
	for _, k := range sortedKeys(t) {
		if !c.readKey("phone", k, dst{ph: p}, key.with(k), t[k]) {
			c.unknown(key.with(k), phoneKeys)
		}
	}
	c.phoneComplete(key, t, p)
}

func (c *checker) phoneKinds(key keyPath, v any) []string {
	list, ok := c.strings(key, v)
	if !ok {
		return nil
	}
	for _, k := range list {
		if !slices.Contains(PhoneKinds, k) {
			c.fail(key, nil, fmt.Sprintf("%q is not a kind of notice", k), "use some of "+quoteList(PhoneKinds))
			return nil
		}
	}
	return list
}

// phoneComplete reports what a [phone] table must have and lacks.
func (c *checker) phoneComplete(key keyPath, t map[string]any, p *Phone) {
	if _, ok := t["service"]; !ok {
		c.fail(key.with("service"), nil, "is missing", `add service = "ntfy" or service = "webhook"`)
		return
	}
	if _, ok := t["url"]; !ok {
		fix := `add the webhook's address, like url = "https://hooks.slack.com/services/…"`
		if p.Service == PhoneNtfy {
			fix = `add the ntfy server, like url = "https://ntfy.sh"`
		}
		c.fail(key.with("url"), nil, "is missing", fix)
	}
	_, topic := t["topic"]
	switch p.Service {
	case PhoneNtfy:
		if !topic {
			c.fail(key.with("topic"), nil, "is missing", `add topic = "…", a topic nobody guesses (it is the password on a public server)`)
		}
		if _, ok := t["shape"]; ok {
			c.fail(key.with("shape"), nil, "is for webhooks", "remove shape: ntfy has its own")
		}
	case PhoneWebhook:
		if topic {
			c.fail(key.with("topic"), nil, "is for ntfy", "remove topic: a webhook's address says where it posts")
		}
	}
}

// phoneURL reads [phone] url: an absolute http or https URL.
func (c *checker) phoneURL(key keyPath, v any) string {
	s, ok := c.str(key, v)
	if !ok {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		c.fail(key, err, fmt.Sprintf("%q is not an http(s) URL", s), `write the server's or the webhook's address, like url = "https://ntfy.sh"`)
		return ""
	}
	return strings.TrimRight(s, "/")
}

// CheckPhone checks a [phone] table given as values (the dashboard's
// form: strings, and arrays of strings as []any) the way config.toml's
// is checked, and returns it; the error names the key and what to write.
func CheckPhone(t map[string]any) (Phone, error) {
	c := &checker{path: "config.toml"}
	var p Phone
	c.phone(&p, keyPath{}.with("phone"), t)
	if err := c.first(); err != nil {
		if e, ok := err.(*Error); ok {
			return Phone{}, fmt.Errorf("%s: %s; %s", e.Key, e.Problem, e.Fix)
		}
		return Phone{}, err
	}
	return p, nil
}
