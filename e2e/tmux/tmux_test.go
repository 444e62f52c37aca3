//go:build unix

package tmux_test

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

func TestTmuxForgetfulAgentIsNudgedAndCompletes(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, newHome(t, projectTOML("web", t.TempDir(), "1s", "3s")))
	id := s.NudgedToDone("web", 15*time.Second)
	// The window was the session's, and it goes with it (the task is done
	// first; the session is ended right after).
	rig.Eventually(t, 10*time.Second, func() error {
		if out, _ := tmux(s.Home, "list-windows", "-a", "-F", "#{window_name}").Output(); strings.Contains(string(out), id+".1") {
			return fmt.Errorf("windows:\n%s", out)
		}
		return nil
	}, "the finished session's window to go")
}

func TestTmuxWedgedAgentIsBlockedAndItsTreeKilled(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, newHome(t, projectTOML("web", t.TempDir(), "1s", "1s")))
	id := s.AddTask("web", "wedged", "child-sleep 300s; print migrating; wedge")
	s.WaitTranscript(id, "child-sleep: pid", 10*time.Second)
	sess, ok := s.SessionOf(id)
	if !ok {
		t.Fatal("no session for the wedged task")
	}
	m := regexp.MustCompile(`child-sleep: pid (\d+)`).FindStringSubmatch(s.Transcript(id, 1))
	child, _ := strconv.Atoi(m[1])
	if !rig.Alive(child) || !rig.Alive(sess.PID) {
		t.Fatal("agent or its child not running at start")
	}
	got := s.WaitState(id, "blocked", 15*time.Second)
	if !strings.Contains(got.Reason, "watchdog") || !strings.Contains(got.Reason, `"migrating"`) {
		t.Errorf("block reason %q", got.Reason)
	}
	rig.WaitEnded(t, 5*time.Second, "the agent and its child after the block", sess.PID, child)
}

// TestTmuxSessionSurvivesKill9 crashes the station while an agent runs in
// tmux and starts it again on the same home: the agent is the same process,
// its task is still working (not blocked "station restarted"), its output
// reaches the transcript again, and typed input reaches it.
func TestTmuxSessionSurvivesKill9(t *testing.T) {
	t.Parallel()
	home := newHome(t, projectTOML("web", t.TempDir(), "30s", "30s"))
	s := rig.StartOn(t, home)
	id := s.AddTask("web", "long", "print started; read-prompt ready>; heartbeat 300ms 1s; complete after the restart")
	s.WaitTranscript(id, "ready>", 10*time.Second)
	before, ok := s.SessionOf(id)
	if !ok {
		t.Fatal("no session before the crash")
	}
	s.Kill9()
	if !rig.Alive(before.PID) {
		t.Fatal("the agent died with the station")
	}

	s2 := rig.StartOn(t, home)
	// The adopted session shows once its goroutine has published it.
	after := s2.WaitSession(id, 5*time.Second, nil)
	if after.PID != before.PID || after.ID != before.ID {
		t.Fatalf("session after the restart %+v, before %+v", after, before)
	}
	if tk := s2.Task(id); tk.State != "working" {
		t.Fatalf("task after the restart is %s (%s), want working", tk.State, tk.Reason)
	}
	if !strings.Contains(s2.Log.String(), "adopted a session") {
		t.Errorf("station log does not say it adopted the session:\n%s", s2.Log)
	}
	// The new station's sweep of what the crash left spares the adopted
	// session's own files.
	prompt := promptFileOf(t, before.PID)
	if _, err := os.Stat(prompt); err != nil {
		t.Errorf("the adopted session's prompt file is gone: %v", err)
	}
	s2.Must("session", "send", after.ID, "hello again")
	// The typed line reached the agent, and its output after the restart
	// reached the transcript.
	s2.WaitTranscript(id, "complete: after the restart", 10*time.Second)
	tr := s2.Transcript(id, 1)
	for _, want := range []string{"started", "got: hello again", "heartbeat 1"} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript lacks %q:\n%s", want, tr)
		}
	}
	var got rig.Task
	rig.Eventually(t, 10*time.Second, func() bool {
		got = s2.Task(id)
		return got.State != "working"
	}, "the task to finish after the restart")
	for _, h := range got.History {
		if strings.Contains(h.Reason, "restarted") {
			t.Errorf("the task was blocked by the restart: %+v", got.History)
		}
	}
	if got.State != "done" || got.Summary != "after the restart" {
		t.Fatalf("task %s (%s), summary %q; want done", got.State, got.Reason, got.Summary)
	}
	rig.WaitGone(t, filepath.Dir(prompt), 10*time.Second)
}

// promptFileOf is BUILDSTATION_PROMPT_FILE in the environment of the
// agent pid: the session's own file, outside the home.
func promptFileOf(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range strings.Split(string(b), "\x00") {
		if v, ok := strings.CutPrefix(kv, "BUILDSTATION_PROMPT_FILE="); ok {
			return v
		}
	}
	t.Fatalf("agent %d has no BUILDSTATION_PROMPT_FILE", pid)
	return ""
}

// TestTmuxSessionSendKeepsSemicolon types a line ending in ";" into a tmux
// session through the CLI: tmux reads an argument's trailing ";" as a
// command separator, which once dropped it.
func TestTmuxSessionSendKeepsSemicolon(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, newHome(t, projectTOML("web", t.TempDir(), "30s", "30s")))
	id := s.AddTask("web", "chat", "read-prompt ready>; complete answered")
	s.WaitTranscript(id, "ready>", 10*time.Second)
	s.Must("session", "send", id+".1", `hello; a\; ü;`)
	s.WaitState(id, "done", 10*time.Second)
	// The transcript follows the console within a moment (its writer
	// gathers output), apart from the agent's report.
	s.WaitTranscript(id, `got: hello; a\; ü;`, 10*time.Second)
}

// TestTmuxLostSessionIsEnded crashes the station while an agent runs in
// tmux, and restarts it with the agent's project gone from config.toml: the
// session cannot be adopted, so its task is blocked "session lost", and its
// agent and its tmux window must not outlive that.
func TestTmuxLostSessionIsEnded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := newHome(t, projectTOML("web", dir, "30s", "30s"))
	s := rig.StartOn(t, home)
	id := s.AddTask("web", "long", "print started; read-prompt ready>; wedge")
	s.WaitTranscript(id, "ready>", 10*time.Second)
	before := s.WaitSession(id, 10*time.Second, nil)
	s.Kill9()
	if !rig.Alive(before.PID) {
		t.Fatal("the agent died with the station")
	}
	t.Cleanup(func() { _ = syscall.Kill(before.PID, syscall.SIGKILL) })
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(projectTOML("renamed", dir, "30s", "30s")), 0o600); err != nil {
		t.Fatal(err)
	}

	s2 := rig.StartOn(t, home)
	got := s2.WaitState(id, "blocked", 20*time.Second)
	if got.Reason != "station restarted: session lost" {
		t.Fatalf("blocked for %q", got.Reason)
	}
	if rig.Alive(before.PID) {
		t.Errorf("agent %d still runs after its task was blocked as lost", before.PID)
	}
	out, _ := tmux(home, "list-windows", "-a", "-F", "#{window_name} #{pane_pid} #{pane_dead}").Output()
	if strings.Contains(string(out), fmt.Sprint(before.PID)) {
		t.Errorf("the lost session's tmux window is still there:\n%s", out)
	}
}

// TestTmuxSessionSurvivesACleanRestart stops the station politely while an
// agent runs in tmux and starts it again: the new station listens where the
// old one did, so the agent, still pointed at its BUILDSTATION_URL, reports
// to it and completes its task, never nudged or blocked for it.
func TestTmuxSessionSurvivesACleanRestart(t *testing.T) {
	t.Parallel()
	home := newHome(t, projectTOML("web", t.TempDir(), "30s", "30s"))
	s := rig.StartOn(t, home)
	id := s.AddTask("web", "long", "print started; read-prompt ready>; complete after the restart")
	s.WaitTranscript(id, "ready>", 10*time.Second)
	before := s.WaitSession(id, 10*time.Second, nil)
	url := s.Client().BaseURL
	s.Stop()
	if !rig.Alive(before.PID) {
		t.Fatalf("the agent %d ended with a clean stop; log:\n%s", before.PID, s.Log)
	}
	s2 := rig.StartOn(t, home)
	if u := s2.Client().BaseURL; u != url {
		t.Errorf("the station came back at %s, not %s where its sessions look for it", u, url)
	}
	s2.WaitSession(id, 10*time.Second, func(after rig.Session) bool { return after.PID == before.PID })
	prompt := promptFileOf(t, before.PID)
	if strings.HasPrefix(prompt, home) {
		t.Errorf("the prompt file %s is in the home", prompt)
	}
	if b, err := os.ReadFile(prompt); err != nil || !strings.Contains(string(b), "complete after the restart") {
		t.Errorf("the adopted session cannot read its prompt file (%v):\n%s", err, b)
	}
	s2.Must("session", "send", before.ID, "go on")
	got := s2.WaitState(id, "done", 20*time.Second)
	if got.Summary != "after the restart" {
		t.Fatalf("task %s (%s), summary %q", got.State, got.Reason, got.Summary)
	}
	rig.WaitGone(t, filepath.Dir(prompt), 10*time.Second)
}

// TestTmuxSessionReportsAfterAPortChange stops the station while an agent
// runs in tmux, and another program takes its port before it comes back:
// the new station says in its log that it listens elsewhere, and the
// agent, whose BUILDSTATION_URL still names the taken port, finds it (the
// session's station.url) and reports progress and completion there. The
// program on the old port never sees a token.
func TestTmuxSessionReportsAfterAPortChange(t *testing.T) {
	t.Parallel()
	home := newHome(t, projectTOML("web", t.TempDir(), "30s", "30s"))
	s := rig.StartOn(t, home)
	id := s.AddTask("web", "long", "print started; read-prompt ready>; progress after the move; complete after the move")
	s.WaitTranscript(id, "ready>", 10*time.Second)
	before := s.WaitSession(id, 10*time.Second, nil)
	old := s.Client().BaseURL
	s.Stop()
	var tokens atomic.Int32
	thief := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			tokens.Add(1)
		}
		w.WriteHeader(http.StatusOK)
	})}
	ln, err := net.Listen("tcp", strings.TrimPrefix(old, "http://"))
	if err != nil {
		t.Fatalf("take the station's port: %v", err)
	}
	go thief.Serve(ln)
	defer thief.Close()

	s2 := rig.StartOn(t, home)
	if u := s2.Client().BaseURL; u == old {
		t.Fatalf("the station came back at %s, the taken port", u)
	}
	if log := s2.Log.String(); !strings.Contains(log, "is taken by another program") {
		t.Errorf("the station's log does not say its port changed:\n%s", log)
	}
	s2.WaitSession(id, 10*time.Second, func(after rig.Session) bool { return after.PID == before.PID })
	s2.Must("session", "send", before.ID, "go on")
	got := s2.WaitState(id, "done", 20*time.Second)
	if got.Summary != "after the move" {
		t.Fatalf("task %s (%s), summary %q", got.State, got.Reason, got.Summary)
	}
	// The transcript is written as the output comes, apart from the
	// agent's report: its last lines may land a moment after the task.
	s2.WaitTranscript(id, "progress: after the move", 10*time.Second)
	if tr := s2.Transcript(id, 1); strings.Contains(tr, "failed") {
		t.Errorf("the agent's progress did not land:\n%s", tr)
	}
	if n := tokens.Load(); n != 0 {
		t.Errorf("the program on the old port received a token %d times", n)
	}
}
