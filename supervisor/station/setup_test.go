package station

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// setupWorkspaces readies each worktree the way platform/gitwt does, in
// the test's fake time: its setup takes took, and fails when fail is set.
type setupWorkspaces struct {
	fakeWorkspaces
	took time.Duration
	fail bool
}

func (f *setupWorkspaces) Prepare(ctx context.Context, p supervisor.Repo, id string) (supervisor.Workspace, error) {
	ws, _ := f.fakeWorkspaces.Prepare(ctx, p, id)
	began := time.Now()
	time.Sleep(f.took)
	run := supervisor.SetupRun{Command: p.Setup, OK: !f.fail, Took: time.Since(began), At: began,
		Output: "added 312 packages in 9s\n"}
	if f.fail {
		run.Output = "npm ERR! code ECONNRESET\nnpm ERR! network socket hang up\n"
		return ws, &supervisor.SetupError{Run: run}
	}
	ws.Setup = &run
	return ws, nil
}

func readTranscript(t *testing.T, h *harness, id string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(h.st.opt.Home, "logs", id+".log"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The watchdog's windows start when the agent does, after the setup: a
// setup of 20 minutes is not 20 minutes of the agent's silence. The
// setup's output is in the transcript under a header, above the agent's.
func TestWindowsStartAfterSetup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Setup = "npm ci"
		h := startWith(t, func(o *Options) { o.Workspaces = &setupWorkspaces{took: 20 * time.Minute} }, p)
		task := h.add("web", "a")
		advance(20 * time.Minute)
		pr := h.proc()
		pr.say("thinking\r\n")
		advance(5*time.Minute - time.Second)
		if s := h.session(task.ID); s.State == supervisor.SessNudged || s.State == supervisor.SessIdle {
			t.Fatalf("%s into the agent's first window (after a 20m setup) the session is %s", 5*time.Minute-time.Second, s.State)
		}
		advance(2 * time.Second)
		if s := h.session(task.ID); s.State != supervisor.SessNudged {
			t.Fatalf("one idle window after the agent started the session is %s (%s), want nudged", s.State, s.Why)
		}
		text := readTranscript(t, h, task.ID+".1")
		head := strings.Index(text, "── buildstation: setup `npm ci`: ok after 20m0s ──")
		if head < 0 || !strings.Contains(text, "added 312 packages") || strings.Index(text, "thinking") < head {
			t.Errorf("the transcript does not start with the setup under its header:\n%s", text)
		}
		if w := strings.Join(h.st.Projects.setupWarnings(), "\n"); !strings.Contains(w, "project web: its setup (`npm ci`) took 20m0s, longer than its idle window (5m0s)") {
			t.Errorf("status warnings: %q", w)
		}
	})
}

// A setup that fails blocks the task with its last lines, says it was not
// the agent, writes its output to the transcript, and does not count
// toward the project's breaker: the queue goes on.
func TestFailedSetupBlocksWithoutTrippingTheBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Setup = "npm ci"
		p.Settings.Breaker = config.Breaker{Count: 2, Within: 10 * time.Minute}
		h := startWith(t, func(o *Options) { o.Workspaces = &setupWorkspaces{took: time.Second, fail: true} }, p)
		var tasks []supervisor.Task
		for _, title := range []string{"a", "b", "c"} {
			tasks = append(tasks, h.add("web", title))
			advance(2 * time.Second)
		}
		for _, task := range tasks {
			got := h.task(task.ID)
			if got.State != supervisor.TaskBlocked || !strings.Contains(got.Reason, "setup failed, not the agent") ||
				!strings.Contains(got.Reason, "npm ERR! network socket hang up") || !strings.Contains(got.Reason, "`npm ci`") {
				t.Errorf("task %s: %s, %q", task.ID, got.State, got.Reason)
			}
		}
		infos, err := h.st.Projects.Projects(h.ctx)
		if err != nil || len(infos) != 1 || infos[0].Paused {
			t.Errorf("the project's queue: %+v %v; three setup failures must not pause it", infos, err)
		}
		if text := readTranscript(t, h, tasks[0].ID+".1"); !strings.Contains(text, "setup `npm ci`: failed after 1s") || !strings.Contains(text, "ECONNRESET") {
			t.Errorf("transcript:\n%s", text)
		}
	})
}

// lackingWorkspaces' gate fails in a checkout that lacks the project's
// ignored .env, and says so (as platform/gitwt does).
type lackingWorkspaces struct{ fakeWorkspaces }

func (f *lackingWorkspaces) HeadGate(context.Context, supervisor.Repo, string, bool) (supervisor.GateVerdict, bool, error) {
	return supervisor.GateVerdict{SHA: "0123456789abcdef", Tail: "FAIL: .env is missing\n", Missing: []string{".env"}}, true, nil
}

// A completion whose gate fails for an ignored file the checkout lacked
// is not the agent's to fix: the task blocks with a reason naming the file
// and .worktreeinclude, the agent is told to stop, the session ends, and
// the block does not count toward the project's breaker.
func TestGateMissingAnIgnoredFileBlocksNamingIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Gate = "make test"
		p.Settings.Breaker = config.Breaker{Count: 1, Within: 10 * time.Minute}
		h := startWith(t, func(o *Options) { o.Workspaces = &lackingWorkspaces{} }, p)
		task := h.add("web", "a")
		advance(time.Second)
		s := h.session(task.ID)
		err := h.st.Agent.AgentComplete(h.ctx, s.ID, "done")
		if err == nil || !strings.Contains(err.Error(), "not your work") {
			t.Fatalf("complete answered %v; want the agent told it is not its to fix", err)
		}
		advance(time.Minute)
		got := h.task(task.ID)
		if got.State != supervisor.TaskBlocked || !strings.Contains(got.Reason, ".env") || !strings.Contains(got.Reason, "add .env to the project's .worktreeinclude") ||
			!strings.Contains(got.Reason, "FAIL: .env is missing") {
			t.Errorf("task %s: %q", got.State, got.Reason)
		}
		if len(h.st.Sessions.Sessions()) != 0 {
			t.Error("the session still runs after its task blocked")
		}
		infos, err := h.st.Projects.Projects(h.ctx)
		if err != nil || len(infos) != 1 || infos[0].Paused {
			t.Errorf("the project's queue: %+v %v; a file the checkout lacked must not trip the breaker", infos, err)
		}
	})
}
