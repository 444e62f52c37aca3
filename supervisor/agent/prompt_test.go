package agent

import (
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

func TestTypeable(t *testing.T) {
	in := "a\r\nb\rc\nd\te\x00f\x1b[2Jg\x03h\x7fi\u0085j\xffk ünï \" % & ^ ! \x1b]52;c;aGk=\x07end"
	want := "a\nb\nc\nd\tefghij\ufffdk ünï \" % & ^ ! end"
	if got := Typeable(in); got != want {
		t.Fatalf("Typeable = %q, want %q", got, want)
	}
}

// Every declared placeholder is filled: a nudge made of all of them has
// no {name} left, whatever the profile.
func TestNudgeFillsEveryPlaceholder(t *testing.T) {
	text := strings.Join(PlaceholderNames(), " | ")
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	got := Nudge(NudgeFacts{Text: text, Title: "fix the build", Profile: Generic, IdleWindow: time.Minute},
		[]string{"console"}, now.Add(-90*time.Second), now, map[string]time.Time{"console": now.Add(-90 * time.Second)})
	for _, name := range PlaceholderNames() {
		if strings.Contains(got, name) {
			t.Errorf("%s is not filled: %q", name, got)
		}
	}
	if !strings.Contains(got, "1m30s | fix the build | console 1m30s ago | run `buildstation agent complete") {
		t.Errorf("nudge = %q", got)
	}
}

// The gate's note in a nudge names the agent's own way to report: a
// generic agent is not told of tools it does not have.
func TestGateNoteSaysThisAgentsWay(t *testing.T) {
	generic := GateNote(Generic, "make test", "abc1234", "FAIL: x")
	if strings.Contains(generic, "complete_task") || strings.Contains(generic, "block_task") || !strings.Contains(generic, "buildstation agent block") {
		t.Errorf("a generic agent's gate note: %q", generic)
	}
	if mcp := GateNote("claude", "make test", "abc1234", "FAIL: x"); !strings.Contains(mcp, "complete_task is refused") || !strings.Contains(mcp, "The gate (make test) fails on your HEAD abc1234: FAIL: x.") {
		t.Errorf("claude's gate note: %q", mcp)
	}
}

// A task from an issue names it and its link, so the agent can read the
// issue's comments (#39 item 6).
func TestPromptNamesTheIssue(t *testing.T) {
	tk := supervisor.Task{ID: "t3", Title: "fix login", Body: "it fails",
		External: &supervisor.External{Kind: "github", ID: "acme/web#12", URL: "https://github.com/acme/web/issues/12"}}
	p := Prompt(tk, supervisor.KindWork, Agent{}, supervisor.Workspace{})
	if !strings.Contains(p, "From issue acme/web#12: https://github.com/acme/web/issues/12") {
		t.Fatalf("prompt:\n%s", p)
	}
}
