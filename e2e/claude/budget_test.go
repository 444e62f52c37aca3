//go:build linux

package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
)

// An agent's hook names a transcript with known figures: the session's
// usage and the task's cost are exact to the cent, and crossing the
// project's daily budget pauses its queue (the next task waits), says why
// in status and in a notice; `project resume` lifts it for the day.
func TestBudgetCrossedPausesTheProject(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := spendingAgent(t, dir, "sleep 60")
	s := scriptStation(t, script, "daily_budget_usd = 10\n")
	first := s.addTask("web", "spends", "x")
	second := s.addTask("web", "waits", "x")

	var st struct {
		Paused     map[string]string  `json:"paused"`
		SpentToday map[string]float64 `json:"spent_today_usd"`
	}
	s.until("the project paused by its budget", 60*time.Second, nil, first, func() bool {
		s.MustJSON(&st, "status", "--json")
		return st.Paused["web"] != ""
	})
	if !strings.Contains(st.Paused["web"], "web spent $12.33 of $10 today") || st.SpentToday["web"] != 12.33 {
		t.Errorf("paused %q, spent %v", st.Paused["web"], st.SpentToday)
	}
	if !strings.Contains(s.log(), "kind=budget") || !strings.Contains(s.log(), "Paused: web spent $12.33 of $10 today") {
		t.Errorf("no budget notice in the station log:\n%s", s.log())
	}
	sess, ok := s.SessionOf(first)
	if !ok || sess.Usage == nil || sess.Usage.CostUSD != 12.33 || sess.Usage.InputTokens != 2008000 || sess.Usage.OutputTokens != 600000 {
		t.Errorf("session %+v, want its usage: $12.33, 2,008,000 in, 600,000 out", sess.Usage)
	}
	if sess.Activity == "" {
		t.Errorf("no activity")
	}
	var task struct {
		CostUSD float64 `json:"cost_usd"`
	}
	s.MustJSON(&task, "task", "show", first, "--json")
	if task.CostUSD != 12.33 {
		t.Errorf("task cost %v, want 12.33", task.CostUSD)
	}
	// The running session goes on; the queue waits.
	time.Sleep(3 * time.Second)
	if got := s.Task(second).State; got != "todo" {
		t.Fatalf("the next task is %s while the project is over its budget", got)
	}
	s.Must("task", "cancel", first)
	time.Sleep(2 * time.Second)
	if got := s.Task(second).State; got != "todo" {
		t.Fatalf("the next task is %s while the project is over its budget", got)
	}
	s.Must("project", "resume", "web")
	s.until("the next task started after resume", 30*time.Second, nil, second, func() bool { return s.Task(second).State == "working" })
}

// transcriptWorth12_33 writes a Claude Code transcript in dir whose usage
// costs exactly $12.33 at the default prices, and returns its path.
func transcriptWorth12_33(t *testing.T, dir string) string {
	t.Helper()
	transcript := filepath.Join(dir, "transcript.jsonl")
	line := func(id string, in, cr, cw, out int) string {
		b, _ := json.Marshal(map[string]any{"type": "assistant", "message": map[string]any{"id": id, "model": "claude-sonnet-4-5-20250929",
			"usage": map[string]any{"input_tokens": in, "cache_read_input_tokens": cr, "cache_creation_input_tokens": cw, "output_tokens": out}}})
		return string(b)
	}
	// sonnet at $3 / $15 / $0.30 / $3.75 per million:
	// 1,000,000 in $3 + 600,000 out $9 + 1,000,000 cache read $0.30 + 8,000 cache write $0.03 = $12.33
	lines := []string{
		line("msg_a", 400000, 1000000, 0, 5), line("msg_a", 400000, 1000000, 0, 100000),
		line("msg_b", 600000, 0, 8000, 500000),
	}
	if err := os.WriteFile(transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return transcript
}

// spendingAgent is an agent script whose PostToolUse hook names a
// transcript worth $12.33, then runs then (a shell line).
func spendingAgent(t *testing.T, dir, then string) string {
	t.Helper()
	transcript := transcriptWorth12_33(t, dir)
	script := filepath.Join(dir, "agent.sh")
	hook := fmt.Sprintf(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"transcript_path":%q}`, transcript)
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s' '"+hook+"' | \"$BUILDSTATION_BIN\" agent hook\n"+then+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// What was spent is kept on the board: a station restarted the same day
// goes on from it. A first task spends $12.33 of a $20 budget and
// completes; the station stops and starts again; its status and the task
// still say $12.33, and the next task's $12.33 pauses the project at
// $24.66 (counted afresh after the restart, it would be $12.33 and run on).
func TestBudgetKeptAcrossRestart(t *testing.T) {
	t.Parallel()
	script := spendingAgent(t, t.TempDir(), `"$BUILDSTATION_BIN" agent complete --summary spent`)
	s := scriptStation(t, script, "daily_budget_usd = 20\n")
	first := s.addTask("web", "spends first", "x")
	s.until("the first task done", 60*time.Second, nil, first, func() bool { return s.Task(first).State == "done" })
	var st struct {
		Paused     map[string]string  `json:"paused"`
		SpentToday map[string]float64 `json:"spent_today_usd"`
	}
	s.MustJSON(&st, "status", "--json")
	if st.SpentToday["web"] != 12.33 || st.Paused["web"] != "" {
		t.Fatalf("before the restart: spent %v, paused %q; want $12.33 and running", st.SpentToday, st.Paused["web"])
	}

	s.Stop()
	s = &station{e2erig.Start(t, e2erig.Bin(), s.Home, stationEnv(s.Home))}
	st.SpentToday = nil
	s.MustJSON(&st, "status", "--json")
	if st.SpentToday["web"] != 12.33 {
		t.Errorf("after the restart status says spent %v, want web $12.33", st.SpentToday)
	}
	var task struct {
		CostUSD float64 `json:"cost_usd"`
	}
	s.MustJSON(&task, "task", "show", first, "--json")
	if task.CostUSD != 12.33 {
		t.Errorf("after the restart the first task cost %v, want 12.33", task.CostUSD)
	}

	second := s.addTask("web", "spends again", "x")
	s.until("the project paused by its budget", 60*time.Second, nil, second, func() bool {
		s.MustJSON(&st, "status", "--json")
		return st.Paused["web"] != ""
	})
	if !strings.Contains(st.Paused["web"], "web spent $24.66 of $20 today") || st.SpentToday["web"] != 24.66 {
		t.Errorf("paused %q, spent %v; want $24.66 of $20", st.Paused["web"], st.SpentToday)
	}
}

// scriptStation starts a station whose project "web" (a fresh git repo)
// runs script as its agent, with one-minute windows and the project keys
// in extra.
func scriptStation(t *testing.T, script, extra string) *station {
	t.Helper()
	return startStation(t, fmt.Sprintf(`max_sessions = 2
[defaults]
idle_window = "60s"
block_window = "60s"

[[projects]]
name = "web"
path = %q
command = [%q]
%s`, e2erig.GitRepo(t), script, extra))
}
