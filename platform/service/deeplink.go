package service

import (
	"net/url"
	"strings"
)

// Scheme is the URL scheme notifications and other apps use to open a
// session's console: buildstation://session/<id>.
const Scheme = "buildstation"

// ParseDeepLink reads a buildstation:// link. buildstation://session/<id>
// gives that session's id; buildstation:// and buildstation://dashboard give
// "" and true (show the dashboard). Anything else, or an id with characters
// a session id never has, is not ok: a link comes from outside, so nothing
// in it is passed on unchecked.
func ParseDeepLink(link string) (sessionID string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(link))
	if err != nil || !strings.EqualFold(u.Scheme, Scheme) || u.User != nil || u.Port() != "" {
		return "", false
	}
	// buildstation://session/x puts "session" in the host;
	// buildstation:session/x (no slashes) leaves it all in Opaque.
	p := u.Opaque
	if p == "" {
		p = u.Host + u.Path
	}
	parts := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case len(parts) == 1 && (parts[0] == "" || strings.EqualFold(parts[0], "dashboard")):
		return "", true
	case len(parts) == 2 && strings.EqualFold(parts[0], "session") && validID(parts[1]):
		return parts[1], true
	}
	return "", false
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
