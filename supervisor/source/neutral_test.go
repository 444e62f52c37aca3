package source

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/buildstation/buildstation/supervisor"
)

var (
	closingRe = regexp.MustCompile(`(?i)\b(close[sd]?|fix(e[sd])?|resolve[sd]?)\s*:?\s+([\w.-]+/[\w.-]+)?#\d+`)
	mentionRe = regexp.MustCompile(`(^|[^\w\x60])@[A-Za-z0-9]`)
)

// The agent's summary goes into the pull request quoted and neutralized:
// no closing keywords but the station's own, no mentions, no images, no
// raw HTML, no escapes (#33 item 10).
func TestPullRequestBodyNeutralizesTheSummary(t *testing.T) {
	tk := supervisor.Task{ID: "t3", Project: "web", Title: "fix \x1b]0;pwned\x07login",
		External: &supervisor.External{Kind: "github", ID: "acme/web#7", URL: "https://github.com/acme/web/issues/7"},
		Summary: "Closes #1 Closes #2, fixes acme/other#9 and resolved: #4\ncc @maintainers and @octo-org/team\n" +
			"![x](https://track.example/p.gif) <img src=https://track.example/q.gif>\x1b[2J done"}
	pr := pullRequest(tk, nil, Context{Station: "box", Branch: func(id string) string { return "bs/" + id }})
	closes := closingRe.FindAllString(pr.Body, -1)
	if len(closes) != 1 || closes[0] != "Closes #7" {
		t.Errorf("closing keywords in the body = %q, want only the station's Closes #7\n%s", closes, pr.Body)
	}
	if m := mentionRe.FindAllString(pr.Body, -1); len(m) > 0 {
		t.Errorf("mentions in the body: %q\n%s", m, pr.Body)
	}
	for _, bad := range []string{"![", "<img", "\x1b", "\a"} {
		if strings.Contains(pr.Body, bad) || strings.Contains(pr.Title, bad) {
			t.Errorf("%q left in the pull request:\n%q\n%s", bad, pr.Title, pr.Body)
		}
	}
	if !strings.Contains(pr.Body, "> ") || !strings.Contains(pr.Body, "done") || !strings.Contains(pr.Body, "maintainers") {
		t.Errorf("the summary is not quoted, or lost:\n%s", pr.Body)
	}
}

// An issue's body is capped, the rest linked; a link that is not https
// (or http on loopback) is not kept (#33 item 10).
func TestBoundedItem(t *testing.T) {
	big := strings.Repeat("é", 3<<20) // 6 MB
	it := Bounded(Item{Ref: supervisor.External{Kind: "github", ID: "acme/web#1", URL: "https://github.com/acme/web/issues/1"}, Title: "t", Body: big})
	if len(it.Body) > MaxBody+200 || !utf8.ValidString(it.Body) || !strings.Contains(it.Body, "https://github.com/acme/web/issues/1") {
		t.Fatalf("bounded body: %d bytes, valid %v, tail %q", len(it.Body), utf8.ValidString(it.Body), it.Body[max(0, len(it.Body)-150):])
	}
	for url, keep := range map[string]bool{
		"https://github.com/acme/web/issues/1": true,
		"http://127.0.0.1:9/acme/web/issues/1": true,
		"file:///etc/passwd":                   false,
		"javascript:alert(1)":                  false,
		"http://evil.example/x":                false,
		"https://":                             false,
	} {
		got := Bounded(Item{Ref: supervisor.External{URL: url}}).Ref.URL
		if (got == url) != keep || !keep && got != "" {
			t.Errorf("URL %q kept as %q, want kept %v", url, got, keep)
		}
	}
}
