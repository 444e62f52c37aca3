package source

import (
	"net/netip"
	"net/url"
	"strings"
	"unicode/utf8"
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
