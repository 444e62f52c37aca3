package station

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// The default nudge tells the truth: how long the agent really was silent
// (not "5 minutes" whatever the window), and the way to report done that
// this agent actually has.
func TestDefaultNudgeSaysTheWindowAndTheAgentsOwnWayToComplete(t *testing.T) {
	for _, tc := range []struct {
		name    string
		agent   string // "" runs an inline command (generic)
		idle    time.Duration
		want    []string
		notWant string
	}{
		{"generic", "", 2 * time.Minute, []string{"silent for 2m0s", "run `buildstation agent complete --summary"}, "complete_task"},
		{"claude", "claude", 7 * time.Minute, []string{"silent for 7m0s", "call the complete_task tool"}, "buildstation agent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := project("web", tc.idle, 5*time.Minute)
				p.Settings.Nudge = config.DefaultNudge
				if tc.agent != "" {
					p.Command, p.Agent = nil, tc.agent
				}
				h := startWith(t, func(o *Options) {
					o.Config.Agents = map[string]config.Agent{"claude": {Name: "claude", Command: []string{"claude"}, Profile: "claude"}}
				}, p)
				task := h.add("web", "fix the bug")
				pr := h.proc()
				typed := 0
				if tc.agent == "claude" {
					// Claude's prompt is typed once it has listed the tools.
					if err := h.st.Agent.AgentHook(h.ctx, h.session(task.ID).ID, supervisor.HookEvent{Event: supervisor.HookMCPReady}); err != nil {
						t.Fatal(err)
					}
					// Past the prompt's echo grace too: output then is life.
					advance(promptSettle + enterDelay + echoGrace + time.Millisecond)
					typed = 2 // the prompt and its Enter
				}
				pr.say("thinking\r\n")
				advance(tc.idle + time.Millisecond)
				w := pr.Writes()[typed:]
				if len(w) != 1 {
					t.Fatalf("writes %q, want the nudge", w)
				}
				for _, s := range tc.want {
					if !strings.Contains(w[0], s) {
						t.Errorf("nudge %q lacks %q", w[0], s)
					}
				}
				if strings.Contains(w[0], tc.notWant) || strings.Contains(w[0], "5 minutes") || strings.Contains(w[0], "{") {
					t.Errorf("nudge %q names what this agent does not have, or a raw placeholder", w[0])
				}
			})
		})
	}
}
