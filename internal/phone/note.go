package phone

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/buildstation/buildstation/internal/textsafe"
)

// Note is one notification for the phone, in the service's terms.
type Note struct {
	Kind      string // a config.PhoneKinds kind
	Project   string
	TaskID    string
	SessionID string
	Title     string
	Text      string
	Click     string // a link the notification opens; "" for none
	Priority  int    // ntfy's 1..5
	Tags      []string
	// Seq identifies the notification, so a later Note with the same Seq
	// updates it where the service can (ntfy's sequence id).
	Seq     string
	Choices []Choice // Allow once / Deny; a service without answers drops them

	kept int64 // its number in the outbox; 0: not kept
}

// Choice is a button of a notification and the reply it sends.
type Choice struct {
	Label string
	Reply Reply
}

// Reply is what the phone sends back when a button is pressed.
type Reply struct {
	Session string `json:"session"`
	Request string `json:"request"`
	Do      string `json:"do"` // "allow" or "deny"
	Key     string `json:"key"`
}

// Body is the reply as the button posts it.
func (r Reply) Body() string {
	b, _ := json.Marshal(r)
	return string(b)
}

// ReplyKey is the key a reply must carry: HMAC-SHA256, keyed by the
// station's token, over the session, the request's id and the verb. It
// is bound to that one request (an answer to an older request of the same
// session does not fit a newer one), and it is apart from the desktop's
// decision links (its own label), so neither key opens the other's door.
func ReplyKey(stationToken, session, request, do string) string {
	m := hmac.New(sha256.New, []byte(stationToken))
	m.Write([]byte("buildstation phone reply\x00" + session + "\x00" + request + "\x00" + do))
	return hex.EncodeToString(m.Sum(nil))
}

// holds reports whether r carries the key of stationToken.
func (r Reply) holds(stationToken string) bool {
	return r.Key != "" && stationToken != "" &&
		hmac.Equal([]byte(r.Key), []byte(ReplyKey(stationToken, r.Session, r.Request, r.Do)))
}

// Bounds of a note's text: a phone shows a few lines, and a chat's
// message has a limit (Discord's is 2,000 characters).
const (
	maxTitle = 120
	maxText  = 1000
)

// secretRe finds what reads like a credential: bearer tokens, ntfy's,
// GitHub's, Slack's, Anthropic's and OpenAI's tokens, and key=value
// pairs whose key says secret. It is a net, not a proof: the text is the
// desktop notice's, which never carries a prompt file or a token the
// station knows; the net catches what an agent's command line shows.
var secretRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(bearer\s+[A-Za-z0-9._~+/=-]{8,}|\btk_[A-Za-z0-9]{8,}|\bgh[pousr]_[A-Za-z0-9]{16,}|\bgithub_pat_[A-Za-z0-9_]{16,}|\bxox[abposr]-[A-Za-z0-9-]{8,}|\bsk-[A-Za-z0-9_-]{16,}|\blin_api_[A-Za-z0-9]{16,}|\b[A-Za-z0-9_]*(token|secret|password|passwd|api_?key)[A-Za-z0-9_]*\s*[=:]\s*\S+)`)
})

// Safe is text as it may leave the machine: no escape sequences or
// control characters, what reads like a credential and each of known
// replaced by "[secret]", at most max bytes (cut on a rune, with "…").
func Safe(s string, max int, line bool, known ...string) string {
	for _, k := range known {
		if len(k) >= 8 {
			s = strings.ReplaceAll(s, k, "[secret]")
		}
	}
	s = secretRe().ReplaceAllString(s, "[secret]")
	if line {
		s = textsafe.Line(s)
	} else {
		s = textsafe.Printable(s)
	}
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
