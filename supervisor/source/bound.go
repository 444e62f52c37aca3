package source

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/buildstation/buildstation/internal/textsafe"
)

// MaxBody caps an issue's body as a task keeps it (and as the agent's
// prompt, every list and every page shows it): an issue's author decides
// its size, the station's memory and the agent's context do not stretch
// with it. The rest stays upstream, linked.
const MaxBody = 64 << 10

// Bounded is it as the station keeps it: the body capped at MaxBody with
// a line linking the rest, and the link dropped unless it is https (or
// http to a loopback address, a stand-in in tests), so a file: or
// javascript: URL an API answer carries is never shown as a link.
func Bounded(it Item) Item {
	it.Ref.URL = SafeURL(it.Ref.URL)
	if len(it.Body) > MaxBody {
		cut := MaxBody
		for cut > 0 && !utf8.RuneStart(it.Body[cut]) {
			cut--
		}
		rest := "the issue"
		if it.Ref.URL != "" {
			rest = it.Ref.URL
		}
		it.Body = it.Body[:cut] + "\n\n[… the issue's body is longer than 64 KiB; read the rest at " + rest + "]"
	}
	return it
}

// SafeURL is u when it is an absolute https URL, or http to a loopback
// address; "" otherwise.
func SafeURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" || p.User != nil {
		return ""
	}
	switch {
	case p.Scheme == "https":
		return u
	case p.Scheme == "http" && loopback(p.Hostname()):
		return u
	}
	return ""
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// Comment bounds: the comments of people who can act on an issue join its
// body in the agent's prompt, each and all of them capped like the body,
// the newest kept.
const (
	maxComment  = 8 << 10
	maxComments = 32 << 10
)

// commentsHeader starts the part of a task's body that holds its issue's
// comments.
const commentsHeader = "\n\n---\nComments on the issue by people who can act on it, oldest first:"

// WithComments is an issue's (bounded) body followed by cs, the comments
// of people who can act on it, made printable and bounded: each at
// maxComment, all at maxComments, the oldest left out first with a line
// saying where they are.
func WithComments(body string, cs []Comment, url string) string {
	if len(cs) == 0 {
		return body
	}
	var entries []string
	for _, c := range cs {
		text := strings.TrimSpace(textsafe.Printable(c.Body))
		if len(text) > maxComment {
			text = strings.ToValidUTF8(text[:maxComment], "") + " […]"
		}
		entries = append(entries, fmt.Sprintf("\n\n%s (%s):\n%s", textsafe.Line(c.Author), c.At.UTC().Format("2006-01-02 15:04"), text))
	}
	size, first := 0, len(entries)
	for first > 0 && size+len(entries[first-1]) <= maxComments {
		first--
		size += len(entries[first])
	}
	var b strings.Builder
	b.WriteString(body)
	b.WriteString(commentsHeader)
	if first > 0 {
		where := "the issue"
		if url != "" {
			where = url
		}
		fmt.Fprintf(&b, "\n\n[… %d older comments are at %s]", first, where)
	}
	for _, e := range entries[first:] {
		b.WriteString(e)
	}
	return b.String()
}
