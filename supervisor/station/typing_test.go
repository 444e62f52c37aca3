package station

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor/agent"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// hostilePrompt is a task body no argv can carry: every character cmd.exe
// treats specially, a NUL, CR, CRLF, an ESC sequence, Ctrl+C, and 200 KiB.
func hostileBody() string {
	var b strings.Builder
	b.WriteString("first \" % & ^ ! < > | line\r\nsecond\rthird\x00 \x1b[31mred\x03 ünï\n")
	for b.Len() < 200<<10 {
		b.WriteString("0123456789 abcdefghijklmnopqrstuvwxyz %PATH% !x! ^& \"q\"\n")
	}
	return b.String()
}

// claudeProject runs a Claude-profile agent (the fake spawner's).
func claudeProject(name string, idle, block time.Duration) (config.Project, func(*Options)) {
	p := project(name, idle, block)
	p.Command, p.Agent = nil, "claude"
	return p, func(o *Options) {
		o.Config.Agents = map[string]config.Agent{"claude": {Name: "claude", Command: []string{"claude"}, Profile: "claude"}}
	}
}

// The prompt never rides in argv: a Claude session gets it typed once its
// agent has listed the station's MCP tools (so its first turn can call
// them), as text and then Enter on its own; however long that takes, the
// session is not nudged for the silence before it.
func TestClaudePromptIsTypedOnceTheToolsAreListed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, opts := claudeProject("web", time.Minute, time.Minute)
		h := startWith(t, opts, p)
		task, err := h.st.Tasks.AddTask(h.ctx, supervisor.NewTask{Project: "web", Title: "title with \x00 NUL", Body: hostileBody()})
		if err != nil {
			t.Fatal(err)
		}
		proc := h.proc()
		for _, a := range proc.spec.Argv {
			if strings.Contains(a, "NUL") || strings.Contains(a, "0123456789") {
				t.Fatalf("the prompt is in argv: %q", a)
			}
		}
		if got := h.task(task.ID); got.State != supervisor.TaskWorking {
			t.Fatalf("task %s: %s", got.State, got.Reason)
		}
		// Claude takes 11–21 s to connect its MCP servers; a silent start
		// longer than idle_window is no reason to nudge.
		advance(80 * time.Second)
		if w := proc.Writes(); len(w) != 0 {
			t.Fatalf("typed %d writes before the tools were listed: %.80q", len(w), w)
		}
		s := h.session(task.ID)
		if err := h.st.Agent.AgentHook(h.ctx, s.ID, supervisor.HookEvent{Event: supervisor.HookMCPReady}); err != nil {
			t.Fatal(err)
		}
		advance(promptSettle)
		w := proc.Writes()
		if len(w) != 1 {
			t.Fatalf("%d writes after the tools were listed, want the prompt alone", len(w))
		}
		file, err := os.ReadFile(filepath.Join(h.st.opt.Home, config.DirLogs, s.ID+".prompt.md"))
		if err != nil {
			t.Fatal(err)
		}
		// One bracketed paste: Claude Code turns the mode on, and takes
		// each read of a long unbracketed prompt for a paste of its own.
		inner, ok := strings.CutPrefix(w[0], "\x1b[200~")
		inner, ok2 := strings.CutSuffix(inner, "\x1b[201~")
		if !ok || !ok2 {
			t.Fatalf("the prompt is not one bracketed paste: %.40q … %.40q", w[0], w[0][len(w[0])-40:])
		}
		if want := agent.Typeable(string(file)); inner != want {
			t.Fatalf("typed prompt differs from the prompt file's (Typeable) text")
		}
		if strings.ContainsAny(inner, "\x00\x1b\x03\r") || !strings.Contains(inner, "first \" % & ^ ! < > | line\nsecond\nthird red ünï\n") {
			t.Fatalf("typed prompt holds control bytes or lost text: %.200q", inner)
		}
		advance(enterDelay)
		if w := proc.Writes(); !slices.Equal(w[1:], []string{"\r"}) {
			t.Fatalf("after the prompt: %q, want one Enter", w[1:])
		}
		// Listed again (a reconnect): typed once only.
		_ = h.st.Agent.AgentHook(h.ctx, s.ID, supervisor.HookEvent{Event: supervisor.HookMCPReady})
		advance(time.Second)
		if n := len(proc.Writes()); n != 2 {
			t.Fatalf("%d writes, want the prompt and its Enter once", n)
		}
		// The window runs from the prompt: silent a whole window after it,
		// the session is nudged.
		advance(time.Minute)
		if got := h.session(task.ID); got.State != supervisor.SessNudged {
			t.Fatalf("session %s a window after the prompt, want nudged", got.State)
		}
	})
}

// An agent that never lists the tools still gets its prompt, promptWait
// after it started.
func TestClaudePromptIsTypedAnywayWithoutMCP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, opts := claudeProject("web", time.Minute, time.Minute)
		h := startWith(t, opts, p)
		task := h.add("web", "no mcp")
		proc := h.proc()
		advance(promptWait - time.Second)
		if n := len(proc.Writes()); n != 0 {
			t.Fatalf("%d writes before promptWait", n)
		}
		advance(time.Second + enterDelay)
		w := proc.Writes()
		if len(w) != 2 || !strings.Contains(w[0], "Task "+task.ID+": no mcp") || w[1] != "\r" {
			t.Fatalf("writes %.120q, want the prompt then Enter", w)
		}
		if got := h.session(task.ID); got.State == supervisor.SessNudged {
			t.Fatal("nudged before the prompt was typed")
		}
	})
}

// Prompts argv could not carry (a NUL in the title, a body over 128 KiB)
// start like any other; and a task the station itself cannot start (its
// own files cannot be written) is blocked with that cause, never "fix the
// project's agent command", and does not trip the project's breaker.
func TestStationsOwnFailureBlocksWithItsCauseAndSparesTheBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Settings.Breaker = config.Breaker{Count: 2, Within: 10 * time.Minute}
		h := start(t, p)
		big, err := h.st.Tasks.AddTask(h.ctx, supervisor.NewTask{Project: "web", Title: "NUL \x00 in the title", Body: hostileBody()})
		if err != nil {
			t.Fatal(err)
		}
		h.proc().exit(0)
		advance(time.Second)
		if got := h.task(big.ID); strings.Contains(got.Reason, "cannot start") {
			t.Fatalf("a hostile prompt could not start: %s", got.Reason)
		}
		logs := filepath.Join(h.st.opt.Home, config.DirLogs)
		var blocked []string
		for i := 2; i <= 4; i++ {
			// The session's prompt file cannot be written: a folder is in
			// its place.
			if err := os.MkdirAll(filepath.Join(logs, "t"+string(rune('0'+i))+".1.prompt.md"), 0o700); err != nil {
				t.Fatal(err)
			}
			task := h.add("web", "cannot write")
			synctest.Wait()
			got := h.task(task.ID)
			if got.State != supervisor.TaskBlocked || !strings.Contains(got.Reason, "cannot write the session's files") || strings.Contains(got.Reason, "agent command") {
				t.Fatalf("task %s %s: %q", task.ID, got.State, got.Reason)
			}
			blocked = append(blocked, task.ID)
		}
		if st, _ := h.st.Control.Status(h.ctx); st.Paused["web"] != "" {
			t.Fatalf("the breaker tripped on the station's own failures %v: %s", blocked, st.Paused["web"])
		}
		next := h.add("web", "goes on")
		h.proc()
		if h.task(next.ID).State != supervisor.TaskWorking {
			t.Fatal("the project's queue did not go on")
		}
	})
}

// jobProc is a Proc whose backend accounts its tree's CPU (as a Windows
// Job Object does).
type jobProc struct{ *fakeProc }

func (jobProc) JobCPU() time.Duration { return 42 * time.Second }

// The evidence layer reaches a Job Object's accounting through the probe
// target; elsewhere it reads the process table.
func TestProbeTargetCarriesTheTreesCPU(t *testing.T) {
	s := &session{proc: jobProc{newFakeProc(supervisor.SpawnSpec{}, 7)}}
	if tg := s.target(); tg.TreeCPU == nil || tg.TreeCPU() != 42*time.Second || tg.PID != 7 {
		t.Fatalf("target %+v: no tree CPU from a job-accounted process", tg)
	}
	if tg := (&session{proc: newFakeProc(supervisor.SpawnSpec{}, 8)}).target(); tg.TreeCPU != nil {
		t.Fatal("a process table backend got a tree CPU func")
	}
}

// A dialog on screen (Claude Code's folder trust, "No, exit" preselected)
// is never answered by the prompt's Enter: the prompt waits, the session
// is surfaced as needs-permission, and once a person has answered the
// prompt is typed.
func TestPromptWaitsOutADialog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, opts := claudeProject("web", time.Minute, time.Minute)
		h := startWith(t, opts, p)
		task := h.add("web", "trust first")
		proc := h.proc()
		proc.say("Accessing workspace: /src/web\r\nIs this a project you created or one you trust?\r\n❯ 1. Yes, proceed\r\n  2. No, exit\r\n")
		advance(promptWait + time.Second)
		if w := proc.Writes(); len(w) != 0 {
			t.Fatalf("typed %.80q into a dialog", w)
		}
		if got := h.session(task.ID); got.State != supervisor.SessNeedsPermission {
			t.Fatalf("session %s with a dialog on screen, want needs-permission", got.State)
		}
		// A person answers; the TUI redraws without the dialog.
		proc.say("\x1b[2J\x1b[H╭ Claude Code ╮\r\n❯ \r\n" + strings.Repeat(" ", screenTail))
		advance(promptRetry + enterDelay)
		w := proc.Writes()
		if len(w) != 2 || !strings.Contains(w[0], "Task "+task.ID) || w[1] != "\r" {
			t.Fatalf("after the dialog: writes %.120q, want the prompt and Enter", w)
		}
	})
}
