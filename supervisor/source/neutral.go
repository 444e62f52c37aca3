package source

import (
	"regexp"
	"strings"
	"sync"

	"github.com/buildstation/buildstation/internal/textsafe"
)

// maxSummary caps the agent's summary in a pull request's body.
const maxSummary = 16 << 10

// zwsp is a zero-width space: put inside a word, GitHub no longer reads it
// as a keyword, a mention or an image, and a reader sees the same text.
const zwsp = "\u200b"

var (
	// closing is GitHub's closing keywords before an issue reference
	// (#N, owner/repo#N, or an issue URL).
	closing = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(close[sd]?|fix(?:e[sd])?|resolve[sd]?)(\s*:?\s+(?:[\w.-]+/[\w.-]+)?#\d+|\s*:?\s+https?://\S+/issues/\d+)`)
	})
	// mention is an @user or @org/team.
	mention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^\w` + "`" + `])@([A-Za-z0-9])`) })
)

// Neutral is text an agent wrote (its summary) made safe to quote in a
// pull request or a comment: control characters and escapes dropped, raw
// HTML shown as text, images turned into links, closing keywords and
// mentions broken so that GitHub neither closes an issue nor notifies
// anyone on the agent's word, capped, and quoted line by line. The
// station's own words (its `Closes #N`) are written outside it.
func Neutral(s string) string {
	s = textsafe.Printable(s)
	if len(s) > maxSummary {
		s = strings.ToValidUTF8(s[:maxSummary], "") + " […]"
	}
	s = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "![", "!"+zwsp+"[").Replace(s)
	s = closing().ReplaceAllStringFunc(s, func(m string) string { return m[:1] + zwsp + m[1:] })
	s = mention().ReplaceAllString(s, "$1@"+zwsp+"$2")
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}
