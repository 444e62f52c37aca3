//go:build linux

package station_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

func TestForgetfulAgentIsNudgedOnceAndCompletes(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", t.TempDir(), "1s", "3s")))
	s.NudgedToDone("web", 15*time.Second)
	if n := strings.Count(s.Log.String(), "msg=nudged"); n != 1 {
		t.Fatalf("nudged %d times, want once", n)
	}
}

func TestWedgedAgentIsBlockedTreeKilledAndNextTaskStarts(t *testing.T) {
	t.Parallel()
	// Windows long enough that a loaded machine still sees the tree alive
	// before the block.
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", t.TempDir(), "3s", "2s")))
	wedged := s.AddTask("web", "wedged", "child-sleep 300s; print migrating; wedge")
	next := s.AddTask("web", "next", "print hello; complete next done")
	if st := s.Task(next).State; st != "todo" {
		t.Fatalf("second task of a 1-slot project is %s, want todo while the first runs", st)
	}
	var sess rig.Session
	rig.Eventually(t, 5*time.Second, func() bool {
		var ok bool
		// The session is listed before its pid is known: wait for both.
		sess, ok = s.SessionOf(wedged)
		return ok && sess.PID != 0 && strings.Contains(s.Transcript(wedged, 1), "child-sleep: pid")
	}, "the wedged session to start its child")
	m := regexp.MustCompile(`child-sleep: pid (\d+)`).FindStringSubmatch(s.Transcript(wedged, 1))
	child, _ := strconv.Atoi(m[1])
	if !rig.Alive(child) || !rig.Alive(sess.PID) {
		t.Fatal("agent or its child not running at start")
	}
	got := s.WaitState(wedged, "blocked", 15*time.Second)
	for _, want := range []string{"watchdog", "no output for 3 s", "then 2 s more", "last output", `"migrating"`} {
		if !strings.Contains(got.Reason, want) {
			t.Errorf("block reason %q lacks %q", got.Reason, want)
		}
	}
	rig.WaitEnded(t, 5*time.Second, "the agent and its child after the block", sess.PID, child)
	// The lock was released: the next task of the project ran.
	s.WaitState(next, "done", 10*time.Second)
	if !strings.Contains(s.Log.String(), "kind=nudge") || !strings.Contains(s.Log.String(), "kind=block") {
		t.Errorf("nudge and block notices not logged:\n%s", s.Log)
	}
}

func TestHeartbeatAndProgressAreNeverNudged(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("a", t.TempDir(), "1s", "1s")+rig.ProjectTOML("b", t.TempDir(), "1s", "1s")))
	hb := s.AddTask("a", "heartbeat", "heartbeat 300ms 4s; complete heartbeat done")
	pr := s.AddTask("b", "reporter", "print start; progress compiling; sleep 600ms; progress linking; sleep 600ms; progress testing; sleep 600ms; progress packaging; sleep 600ms; progress signing; sleep 600ms; progress done; complete reporter done")
	s.WaitState(hb, "done", 15*time.Second)
	s.WaitState(pr, "done", 15*time.Second)
	if strings.Contains(s.Log.String(), "msg=nudged") {
		t.Fatalf("a live session was nudged:\n%s", s.Log)
	}
}

func TestWindowsArePerProject(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, "[defaults]\nidle_window = \"30s\"\nblock_window = \"30s\"\n"+
		rig.ProjectTOML("fast", t.TempDir(), "1s", "1s")+
		"\n[[projects]]\nname = \"slow\"\npath = "+strconv.Quote(t.TempDir())+"\ncommand = [\"buildstation\", \"fake-agent\"]\n"))
	fast := s.AddTask("fast", "fast", "print x; wedge")
	slow := s.AddTask("slow", "slow", "print x; wedge")
	s.WaitState(fast, "blocked", 10*time.Second)
	if st := s.Task(slow).State; st != "working" {
		t.Fatalf("slow project's task %s; its 30s default window was not honoured", st)
	}
	if ss, _ := s.SessionOf(slow); ss.NudgedAt != nil {
		t.Fatal("slow project's session was nudged")
	}
	var projects []struct {
		Name       string `json:"name"`
		IdleWindow string `json:"idle_window"`
	}
	if err := jsonUnmarshal(s.Must("project", "ls", "--json"), &projects); err != nil {
		t.Fatal(err)
	}
	if len(projects) != 2 || projects[0].IdleWindow != "1s" || projects[1].IdleWindow != "30s" {
		t.Fatalf("project ls: %+v", projects)
	}
	s.Must("task", "cancel", slow)
}

func TestEarlyExitAndMissingCommand(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", t.TempDir(), "5s", "5s")+
		"\n[[projects]]\nname = \"broken\"\npath = "+strconv.Quote(t.TempDir())+"\ncommand = [\"no-such-agent-xyz\"]\n"))
	crash := s.AddTask("web", "crash", "print panic: boom; exit 3")
	missing := s.AddTask("broken", "missing", "print never")
	got := s.WaitState(crash, "blocked", 10*time.Second)
	if !strings.Contains(got.Reason, "code 3") || !strings.Contains(got.Reason, "panic: boom") {
		t.Errorf("early exit reason %q lacks the code and the last line", got.Reason)
	}
	got = s.WaitState(missing, "blocked", 10*time.Second)
	if !strings.Contains(got.Reason, "cannot start") || !strings.Contains(got.Reason, "no-such-agent-xyz") {
		t.Errorf("missing command reason %q", got.Reason)
	}
	// The station goes on.
	ok := s.AddTask("web", "fine", "print ok; complete fine")
	s.WaitState(ok, "done", 10*time.Second)

	// Requeue: attempt 2, the old reason kept in the history.
	s.Must("task", "requeue", crash, "--note", "retry")
	got = s.Task(crash)
	if got.Attempt != 2 {
		t.Fatalf("attempt %d after requeue, want 2", got.Attempt)
	}
	var kept bool
	for _, h := range got.History {
		kept = kept || (h.To == "blocked" && strings.Contains(h.Reason, "code 3"))
	}
	if !kept {
		t.Fatalf("history lost the old reason: %+v", got.History)
	}
	s.WaitState(crash, "blocked", 10*time.Second) // the script still exits 3
	if !strings.Contains(s.Transcript(crash, 2), "panic: boom") {
		t.Fatal("attempt 2 did not run")
	}
}

func TestSessionEnvironmentAndAgentCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := `echo "url=$BUILDSTATION_URL task=$BUILDSTATION_TASK_ID session=$BUILDSTATION_SESSION_ID tokenlen=${#BUILDSTATION_TOKEN}"; ` +
		`head -1 "$BUILDSTATION_PROMPT_FILE"; pwd; buildstation agent progress "checking env" && buildstation agent complete --summary env-ok`
	cfg := "\n[[projects]]\nname = \"sh\"\npath = " + strconv.Quote(dir) + "\ncommand = [\"sh\", \"-c\", " + strconv.Quote(script) + "]\n"
	s := rig.StartOn(t, rig.WriteConfig(t, cfg))
	id := strings.TrimSpace(s.Must("task", "add", "--project", "sh", "--title", "env check"))
	got := s.WaitState(id, "done", 10*time.Second)
	if got.Summary != "env-ok" {
		t.Fatalf("summary %q", got.Summary)
	}
	tr := s.Transcript(id, 1)
	for _, want := range []string{"url=http://127.0.0.1:", "task=" + id, "session=" + id + ".1", "tokenlen=48", "Task " + id + ": env check", dir} {
		if !strings.Contains(tr, want) {
			t.Errorf("session output lacks %q:\n%s", want, tr)
		}
	}
	// A session token acts on its own task only: the station's own token
	// file is not what sessions get.
	tok, _ := os.ReadFile(filepath.Join(s.Home, "token"))
	if strings.Contains(tr, strings.TrimSpace(string(tok))) {
		t.Fatal("a session saw the station token")
	}
}

func TestSessionSendTypesTextThenEnter(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", t.TempDir(), "30s", "30s")))
	id := s.AddTask("web", "chat", "read-prompt ready>; complete answered")
	s.WaitTranscript(id, "ready>", 10*time.Second)
	s.Must("session", "send", id+".1", "hello there")
	s.WaitState(id, "done", 10*time.Second)
	// The transcript follows the console within a moment (its writer
	// gathers output), apart from the agent's report.
	s.WaitTranscript(id, "got: hello there", 10*time.Second)
	_, errOut, code := s.Run("session", "send", "t99.1", "x")
	if code != 1 || !strings.Contains(errOut, "session ls") {
		t.Fatalf("send to an unknown session: exit %d %q", code, errOut)
	}
}
