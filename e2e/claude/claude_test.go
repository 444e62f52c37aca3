//go:build linux

package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
)

const completeTask = "mcp__buildstation__complete_task"

// The agent reads its task and calls complete_task over MCP: the task is
// done with the summary it gave.
func TestClaudeCompletesThroughMCP(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{window: "20s"},
		call("mcp__buildstation__get_task", map[string]any{}),
		call(completeTask, map[string]any{"summary": "e2e: finished through MCP"}),
		say("Done."))
	id := r.addTask("web", "finish the widget", "Call complete_task with a summary.")
	r.until("the task done", 60*time.Second, r.api, id, func() bool { return r.Task(id).State == "done" })
	if got := r.Task(id); got.Summary != "e2e: finished through MCP" {
		t.Errorf("summary %q, want the one sent through MCP", got.Summary)
	}
	mains := mainRequests(r.api)
	if len(mains) < 2 {
		t.Fatalf("%d agent-loop requests, want get_task's result sent back", len(mains))
	}
	if !strings.Contains(mains[0].LastUser, "Task "+id) || !strings.Contains(mains[0].LastUser, "complete_task") {
		t.Errorf("the first user message is not the task prompt: %q", mains[0].LastUser)
	}
	if !strings.Contains(mains[1].LastUser, "[tool_result]") || !strings.Contains(mains[1].LastUser, "finish the widget") {
		t.Errorf("get_task's result does not hold the task: %q", mains[1].LastUser)
	}
	// The station types the prompt once the tools are listed, so the first
	// request offers them, directly, not behind ToolSearch.
	if !slices.Contains(mains[0].Tools, completeTask) {
		t.Errorf("the station's tools were not offered directly: %v", mains[1].Tools)
	}
	if strings.Contains(r.log(), "msg=nudged") {
		t.Error("a session that finished at once was nudged")
	}
}

// Claude's first turn: the station types the prompt once Claude Code has
// listed the station's MCP tools, so the very first model request offers
// complete_task and a one-shot task lands at once, never nudged. The prompt
// is multi-line, holds every character cmd.exe and shells treat specially,
// and is too long for one argv entry on Linux (128 KiB): typed, it reaches
// the model whole.
func TestClaudeFirstTurnHasTheStationTools(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{window: "15s"},
		call(completeTask, map[string]any{"summary": "e2e: done in the first turn"}),
		say("Done."))
	var body strings.Builder
	body.WriteString("Call complete_task at once.\nQuotes \" and % & ^ ! < > | `x` $HOME %PATH% !x!\r\nlast of the head\n")
	for i := 0; body.Len() < 200<<10; i++ {
		fmt.Fprintf(&body, "line %05d: \" %% & ^ ! stays as typed\n", i)
	}
	file := filepath.Join(t.TempDir(), "body.txt")
	if err := os.WriteFile(file, []byte(body.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	var task e2erig.Task
	r.MustJSON(&task, "task", "add", "--project", "web", "--title", `one shot "%&^!"`, "--body-file", file, "--json")
	id := task.ID
	r.until("the task done", 120*time.Second, r.api, id, func() bool { return r.Task(id).State == "done" })
	mains := mainRequests(r.api)
	if len(mains) == 0 {
		t.Fatal("no agent-loop request")
	}
	if !slices.Contains(mains[0].Tools, completeTask) {
		t.Errorf("the first model request offered no station tools: %v", mains[0].Tools)
	}
	first := mains[0].LastUser
	want := strings.ReplaceAll(strings.TrimSpace(body.String()), "\r\n", "\n")
	if !strings.Contains(first, `Task `+id+`: one shot "%&^!"`) || !strings.Contains(first, want) {
		t.Errorf("the first user message is not the whole prompt (%d bytes, want the %d-byte body in it): head %q tail %q",
			len(first), len(want), clip(first, 300), first[max(0, len(first)-300):])
	}
	if got := r.Task(id); got.Summary != "e2e: done in the first turn" {
		t.Errorf("summary %q", got.Summary)
	}
	if strings.Contains(r.log(), "msg=nudged") {
		t.Error("a task that could finish in its first turn was nudged")
	}
}

// The seed case: the model answers with text only and goes quiet at the
// prompt. The station types its nudge (text, then Enter on its own); it
// reaches the model as a new user message, and the model then completes.
func TestClaudeNudgedAtThePromptCompletes(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{window: "4s"},
		say("I have made the change."),
		call(completeTask, map[string]any{"summary": "e2e: finished after the nudge"}),
		say("Done."))
	id := r.addTask("web", "forgetful", "Make the change, then call complete_task.")
	r.until("the task done", 60*time.Second, r.api, id, func() bool { return r.Task(id).State == "done" })
	if got := r.Task(id); got.Summary != "e2e: finished after the nudge" {
		t.Errorf("summary %q", got.Summary)
	}
	var nudged *apiRequest
	for _, q := range r.api.requests() {
		if q.Main && strings.Contains(q.LastUser, nudgeText) {
			nudged = &q
			break
		}
	}
	if nudged == nil {
		t.Fatalf("the nudge never reached the model as a user message")
	}
	if nudged.Answer != "tool_use "+completeTask {
		t.Errorf("the model answered the nudge with %s, want the complete_task call", nudged.Answer)
	}
	if n := strings.Count(r.log(), "msg=nudged"); n != 1 {
		t.Errorf("nudged %d times, want once", n)
	}
}

// With permission_mode "default" a Bash call asks permission: the station's
// PermissionRequest hook waits for a person, and nobody answering, Claude
// Code shows its own prompt, where Enter would approve it. The Notification
// hook says so: the session is needs-permission, a person is told, and
// nothing is typed into it, however long it stays silent.
func TestClaudePermissionPromptIsNeverTypedInto(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{permissionMode: "default", window: "3s"},
		call("Bash", map[string]any{"command": "touch x", "description": "Create the file x"}),
		say("Created x."))
	id := r.addTask("web", "needs a person", "Create the file x.")
	var sess e2erig.Session
	r.until("the session asking a person", 45*time.Second, r.api, id, func() bool {
		var ok bool
		sess, ok = r.SessionOf(id)
		return ok && sess.State == "needs-permission" && sess.WaitingOn != nil
	})
	if w := sess.WaitingOn; w.Tool != "Bash" || w.Input != "touch x" {
		t.Errorf("waiting on %+v, want Bash: touch x", *w)
	}
	// idle_window + block_window, and a margin: a silent session would have
	// been nudged and blocked by now.
	quietUntil := time.Now().Add(3*time.Second + 3*time.Second + 3*time.Second)
	for time.Now().Before(quietUntil) {
		s, ok := r.SessionOf(id)
		if !ok || s.State != "needs-permission" {
			t.Fatalf("the session left needs-permission unanswered: %+v\n%s", s, r.story(r.api, id))
		}
		time.Sleep(500 * time.Millisecond)
	}
	if got := r.Task(id); got.State != "working" {
		t.Fatalf("task %s, want still working: %s", got.State, got.Reason)
	}
	// Nobody answered within the wait (the idle window, at least 5 s):
	// the request is withdrawn and the agent shows its own dialog.
	if s, _ := r.SessionOf(id); s.WaitingOn != nil {
		t.Errorf("the request still waits after the timeout: %+v", *s.WaitingOn)
	}
	log := r.log()
	if !strings.Contains(log, "kind=needs-permission") {
		t.Error("no needs-permission notice in the station log")
	}
	if strings.Contains(log, "msg=nudged") {
		t.Error("the station typed a nudge into a permission prompt")
	}
	for _, dir := range []string{sess.Dir, r.repo} {
		if dir == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
			t.Fatalf("x exists in %s: the Bash call was approved", dir)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(screenText(r.Transcript(id, 1))), ""), "Doyouwanttoproceed") {
		t.Errorf("the permission prompt is not on the screen")
	}
	if r.api.left() != 1 {
		t.Errorf("the model was asked again (%d turns left): the call ran or was refused", r.api.left())
	}
}

// Hooks drive the session's state: Stop makes it waiting, and the
// UserPromptSubmit that the nudge's Enter fires is seen (the agent is
// "thinking") while the session is working again, before the model has
// answered. The station log records what moved the state ("on=waiting").
//
// Observed with 2.1.328: after the Stop hook the TUI keeps drawing for ~9 s
// (a "done" line, then its mascot's frames), and that output moves the
// session from waiting back to working within milliseconds; so waiting is
// asserted from the log, not by polling `session ls`. After the nudge, the
// TUI draws its spinner while the hook runs: on a loaded machine that
// output ends "nudged" before the hook's report does (seen in a stress
// run), and either is the agent's life; the hook is asserted by what it
// says, the activity.
func TestClaudeHooksDriveSessionState(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{window: "4s"},
		say("I think I am done."),
		// Slow to answer the nudge, so the state between the prompt and
		// the reply can be seen from outside.
		turn{Tool: completeTask, Input: map[string]any{"summary": "e2e-hooks"}, Delay: 2 * time.Second},
		say("Done."))
	id := r.addTask("web", "hooks", "Finish, then call complete_task.")
	r.until("the Stop hook making the session waiting", 45*time.Second, r.api, id, func() bool {
		return strings.Contains(r.log(), "to=waiting on=waiting")
	})
	var s e2erig.Session
	r.until("the prompt hook after the nudge, the session working", 30*time.Second, r.api, id, func() bool {
		var ok bool
		s, ok = r.SessionOf(id)
		return ok && s.NudgedAt != nil && s.Activity == "thinking" && s.State == "working"
	})
	if !strings.Contains(r.log(), "from=nudged to=working") {
		t.Errorf("the log does not say the nudged session worked again: %+v", s)
	}
	r.until("the task done", 30*time.Second, r.api, id, func() bool { return r.Task(id).State == "done" })
}

func mainRequests(api *fakeAPI) []apiRequest {
	var out []apiRequest
	for _, q := range api.requests() {
		if q.Main {
			out = append(out, q)
		}
	}
	return out
}
