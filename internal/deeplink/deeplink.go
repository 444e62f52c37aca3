package deeplink

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Scheme is the URL scheme notifications and other apps use to open a
// session's console: buildstation://session/<id>.
const Scheme = "buildstation"

// Link is what a buildstation:// link asks: the session to show ("" for
// the dashboard) and, for a notice's button, the decision it makes: Verb
// "allow", "deny" or "answer" (with Answer, the option's text), or a
// finished notice's "merge" of Task's work; "diff" (View diff) only shows
// Task's diff window.
type Link struct {
	SessionID string
	Verb      string
	Answer    string
	// Task is the task whose work a finished notice's View diff shows
	// and Merge lands (Verb "diff" or "merge"; "" for any other).
	Task string
	// Request is the id of the request the notice showed (the session's
	// waiting_on.id): the decision is made on that request only, and the
	// key binds it, so a link made for one request decides no later one.
	Request string
	// Key proves a decision came from the station's own notice
	// (DecisionKey): any web page can open a buildstation:// link, so a
	// decision without the key of this home's station token decides
	// nothing.
	Key string
}

// The verbs of a finished notice's buttons: View diff shows the task's
// diff window, Merge lands its work (a decision, with a key).
const (
	VerbDiff  = "diff"
	VerbMerge = "merge"
)

// DecisionKey is the key a notice's decision link carries: HMAC-SHA256,
// keyed by the station's token, over the session, the verb, the answer,
// the request and the task (a Merge's). Only a program that can read the
// token (the station, the tray) can make it; a web page or another user
// cannot.
func DecisionKey(stationToken string, l Link) string {
	m := hmac.New(sha256.New, []byte(stationToken))
	m.Write([]byte("buildstation link decision\x00" + l.SessionID + "\x00" + l.Verb + "\x00" + l.Answer + "\x00" + l.Request))
	if l.Task != "" {
		// Only a Merge's link names a task: the keys of the others are
		// those made before tasks were carried.
		m.Write([]byte("\x00task\x00" + l.Task))
	}
	return hex.EncodeToString(m.Sum(nil))
}

// KeyHolds reports whether l carries the key of stationToken.
func (l Link) KeyHolds(stationToken string) bool {
	return l.Key != "" && stationToken != "" && hmac.Equal([]byte(l.Key), []byte(DecisionKey(stationToken, l)))
}

// maxAnswer bounds an answer carried in a link: a question's option, as a
// notice's button shows it.
const maxAnswer = 200

// String is the link itself: buildstation://session/ID, with ?do=VERB (or
// do=answer:TEXT) for a decision, req=REQUEST for the request shown and
// key=KEY; buildstation://dashboard for no session.
func (l Link) String() string {
	if l.SessionID == "" {
		return Scheme + "://dashboard"
	}
	s := Scheme + "://session/" + url.PathEscape(l.SessionID)
	var q []string
	switch l.Verb {
	case "allow", "deny":
		q = append(q, "do="+l.Verb)
	case "answer":
		q = append(q, "do="+url.QueryEscape("answer:"+l.Answer))
	case VerbDiff, VerbMerge:
		q = append(q, "do="+l.Verb, "task="+url.QueryEscape(l.Task))
	}
	if l.Request != "" {
		q = append(q, "req="+url.QueryEscape(l.Request))
	}
	if l.Verb != "" && l.Verb != VerbDiff && l.Key != "" {
		q = append(q, "key="+url.QueryEscape(l.Key))
	}
	if len(q) == 0 {
		return s
	}
	return s + "?" + strings.Join(q, "&")
}

// ParseDeepLink reads a buildstation:// link for the session it shows:
// ParseLink without the decision.
func ParseDeepLink(link string) (sessionID string, ok bool) {
	l, ok := ParseLink(link)
	return l.SessionID, ok
}

// ParseLink reads a buildstation:// link. buildstation://session/<id>
// gives that session's id; buildstation:// and buildstation://dashboard give
// no session (show the dashboard); buildstation://session/<id>?do=allow
// (deny, answer:TEXT) is a notice's button and carries its decision;
// ?do=diff&task=T and ?do=merge&task=T are a finished notice's View diff
// and Merge. Anything else, an id with characters a session id never has, a query
// with anything but one do, or a decision without a session, is not ok: a
// link comes from outside, so nothing in it is passed on unchecked.
func ParseLink(link string) (Link, bool) {
	u, err := url.Parse(strings.TrimSpace(link))
	if err != nil || !strings.EqualFold(u.Scheme, Scheme) || u.User != nil || u.Port() != "" || u.Fragment != "" {
		return Link{}, false
	}
	// buildstation://session/x puts "session" in the host;
	// buildstation:session/x (no slashes) leaves it all in Opaque.
	p := u.Opaque
	if p == "" {
		p = u.Host + u.Path
	}
	var l Link
	parts := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case len(parts) == 1 && (parts[0] == "" || strings.EqualFold(parts[0], "dashboard")):
	case len(parts) == 2 && strings.EqualFold(parts[0], "session") && validID(parts[1]):
		l.SessionID = parts[1]
	default:
		return Link{}, false
	}
	if u.RawQuery == "" && !u.ForceQuery {
		return l, true
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil || l.SessionID == "" {
		return Link{}, false
	}
	// Each of do, req, task and key at most once, nothing else; a key
	// only with a decision, a task only with diff or merge (and View diff
	// decides nothing, so it carries no key).
	for k, v := range q {
		if len(v) != 1 {
			return Link{}, false
		}
		switch k {
		case "do":
		case "req":
			if !validRequest(v[0]) {
				return Link{}, false
			}
			l.Request = v[0]
		case "key":
			if !validKey(v[0]) || len(q["do"]) == 0 || q["do"][0] == VerbDiff {
				return Link{}, false
			}
			l.Key = v[0]
		case "task":
			if !validID(v[0]) {
				return Link{}, false
			}
			l.Task = v[0]
		default:
			return Link{}, false
		}
	}
	if do := q["do"]; len(do) == 1 && (do[0] == VerbDiff || do[0] == VerbMerge) {
		if l.Task == "" {
			return Link{}, false
		}
		l.Verb = do[0]
	} else if len(do) == 1 {
		var ok bool
		if l.Verb, l.Answer, ok = ParseDecision(do[0]); !ok || l.Task != "" {
			return Link{}, false
		}
	} else if l.Request == "" || l.Task != "" {
		return Link{}, false
	}
	return l, true
}

// validRequest accepts what the station's request ids are made of:
// lowercase hex digits, at most 64.
func validRequest(r string) bool {
	return r != "" && len(r) <= 64 && strings.Trim(r, "0123456789abcdef") == ""
}

// ParseDecision reads a notice button's decision: "allow", "deny" or
// "answer:TEXT" (TEXT one line of printable text); ok is false for
// anything else.
func ParseDecision(do string) (verb, answer string, ok bool) {
	switch {
	case do == "allow" || do == "deny":
		return do, "", true
	case strings.HasPrefix(do, "answer:"):
		a := do[len("answer:"):]
		if strings.TrimSpace(a) == "" || len(a) > maxAnswer || !utf8.ValidString(a) || strings.IndexFunc(a, unicode.IsControl) >= 0 {
			return "", "", false
		}
		return "answer", a, true
	}
	return "", "", false
}

// validID accepts what the station's ids are made of: letters, digits, '-'
// and '_', at most 64 of them.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	// Session ids are "t3.1" and "t3.2.review": dots inside, never at the
	// ends or doubled (nothing that reads like a path).
	if strings.HasPrefix(id, ".") || strings.HasSuffix(id, ".") || strings.Contains(id, "..") {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// validKey accepts what DecisionKey makes: 64 lowercase hex digits.
func validKey(k string) bool {
	if len(k) != 64 {
		return false
	}
	_, err := hex.DecodeString(k)
	return err == nil && strings.ToLower(k) == k
}
