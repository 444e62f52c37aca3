package station

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/platform/stationfs"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

const testNudge = "Note: silent for {idle}. If you've finished, commit and call complete_task."

type harness struct {
	t      *testing.T
	st     *Station
	board  *memBoard
	sp     *fakeSpawner
	notes  *recNotifier
	prober *fakeProber
	ctx    context.Context
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
}

func project(name string, idle, block time.Duration) config.Project {
	return config.Project{Repo: supervisor.Repo{Name: name, Path: "/"}, Command: []string{"agent"}, Concurrency: 1,
		Settings: config.Settings{IdleWindow: idle, BlockWindow: block, ReviewIdleWindow: 2 * idle, Nudge: testNudge}}
}

// start runs a station inside the current synctest bubble.
func start(t *testing.T, projects ...config.Project) *harness {
	t.Helper()
	return startWith(t, nil, projects...)
}

func startWith(t *testing.T, opts func(*Options), projects ...config.Project) *harness {
	t.Helper()
	h := &harness{t: t, board: newMemBoard(), sp: &fakeSpawner{procs: make(chan *fakeProc, 16)}, notes: &recNotifier{}, prober: &fakeProber{}}
	cfg := &config.Config{MaxSessions: 4, Projects: projects}
	home := t.TempDir()
	o := Options{Home: home, Files: testFiles(t, home, t.TempDir()), Environ: os.Environ, Config: cfg, Board: h.board, Spawner: h.sp, Notifier: h.notes, Probers: []supervisor.Prober{h.prober}, URL: "http://127.0.0.1:1"}
	if opts != nil {
		opts(&o)
	}
	st, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	h.st = st
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.done = make(chan error, 1)
	go func() { h.done <- st.Run(h.ctx) }()
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	h.once.Do(func() {
		h.cancel()
		<-h.done
	})
}

func (h *harness) add(projectName, title string) supervisor.Task {
	h.t.Helper()
	task, err := h.st.Tasks.AddTask(h.ctx, supervisor.NewTask{Project: projectName, Title: title})
	if err != nil {
		h.t.Fatal(err)
	}
	return task
}

func (h *harness) proc() *fakeProc {
	h.t.Helper()
	synctest.Wait()
	select {
	case p := <-h.sp.procs:
		return p
	default:
		h.t.Fatal("no session was started")
		return nil
	}
}

func (h *harness) task(id string) supervisor.Task {
	h.t.Helper()
	synctest.Wait()
	task, err := h.board.Task(h.ctx, id)
	if err != nil {
		h.t.Fatal(err)
	}
	return task
}

func (h *harness) session(taskID string) supervisor.SessionInfo {
	h.t.Helper()
	synctest.Wait()
	for _, s := range h.st.Sessions.Sessions() {
		if s.TaskID == taskID {
			return s
		}
	}
	h.t.Fatalf("no live session for %s", taskID)
	return supervisor.SessionInfo{}
}

// advance lets d of fake time pass and everything settle.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

func TestForgetfulAgentIsNudgedOnceAndCompletes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "fix the bug")
		p := h.proc()
		p.say("All tests pass.\r\n")
		advance(5*time.Minute - time.Second)
		if w := p.Writes(); len(w) != 0 {
			t.Fatalf("typed %q before the idle window ran out", w)
		}
		advance(time.Second + time.Millisecond)
		w := p.Writes()
		if len(w) != 1 || !strings.HasPrefix(w[0], "Note: silent for 5m") || strings.ContainsAny(w[0], "\r\n") {
			t.Fatalf("after the idle window typed %q, want the nudge text alone", w)
		}
		if s := h.session(task.ID); s.State != supervisor.SessNudged || s.NudgedAt == nil {
			t.Fatalf("session %v nudged_at %v, want nudged", s.State, s.NudgedAt)
		}
		advance(enterDelay)
		if w := p.Writes(); len(w) != 2 || w[1] != "\r" {
			t.Fatalf("Enter must follow as its own write; writes %q", w)
		}
		// The agent takes the nudge as a new message and completes.
		s := h.session(task.ID)
		if err := h.st.Agent.AgentComplete(h.ctx, s.ID, "fixed it"); err != nil {
			t.Fatal(err)
		}
		if got := h.task(task.ID); got.State != supervisor.TaskDone || got.Summary != "fixed it" {
			t.Fatalf("task %v %q, want done", got.State, got.Summary)
		}
		if len(h.st.Sessions.Sessions()) != 0 {
			t.Fatal("session still live after complete")
		}
		if k := h.notes.kinds(); !slices.Equal(k, []supervisor.NoticeKind{supervisor.NoticeNudge, supervisor.NoticeFinished}) {
			t.Fatalf("notices %v, want one nudge, then finished", k)
		}
		advance(time.Hour)
		if n := len(p.Writes()); n != 2 {
			t.Fatalf("nudged %d times in all, want once", n/2)
		}
	})
}

func TestWedgedAgentIsBlockedAndTheNextTaskStarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		first := h.add("web", "migrate")
		second := h.add("web", "next one")
		p := h.proc()
		p.say("Running migration 0042...\r\n")
		advance(5*time.Minute + time.Millisecond)
		if s := h.session(first.ID); s.State != supervisor.SessNudged {
			t.Fatalf("state %v, want nudged", s.State)
		}
		// A wedged TUI still echoes what is typed: that is not life.
		p.say(p.Writes()[0])
		advance(enterDelay)
		p.say("\r\n")
		advance(5*time.Minute - 2*time.Second)
		if got := h.task(first.ID); got.State != supervisor.TaskWorking {
			t.Fatalf("blocked early: %v %q", got.State, got.Reason)
		}
		advance(3 * time.Second)
		got := h.task(first.ID)
		if got.State != supervisor.TaskBlocked {
			t.Fatalf("task %v, want blocked after both windows", got.State)
		}
		for _, want := range []string{"watchdog", "no output for 5 min", "then 5 min more", "last output", "Running migration 0042", "board: nothing", "cpu: nothing"} {
			if !strings.Contains(got.Reason, want) {
				t.Errorf("reason %q lacks %q", got.Reason, want)
			}
		}
		if p.stops == 0 {
			t.Error("the wedged tree was not stopped")
		}
		// The slot is free: the next queued task of the project starts at once.
		p2 := h.proc()
		if p2 == nil || h.task(second.ID).State != supervisor.TaskWorking {
			t.Fatal("next queued task did not start")
		}
		if k := h.notes.kinds(); !slices.Equal(k, []supervisor.NoticeKind{supervisor.NoticeNudge, supervisor.NoticeBlock}) {
			t.Fatalf("notices %v, want nudge then block", k)
		}
		// The notices say it in plain words; the card keeps the reason.
		h.notes.mu.Lock()
		nudge, block := h.notes.ns[0].Body, h.notes.ns[1].Body
		h.notes.mu.Unlock()
		if want := "Silent 5 min, so it was nudged; blocked in 5 min without a sign of life — last line: 'Running migration 0042...'"; nudge != want {
			t.Errorf("nudge notice %q\nwant %q", nudge, want)
		}
		if want := "Silent 5 min after a nudge — last line: 'Running migration 0042...'"; block != want {
			t.Errorf("block notice %q\nwant %q", block, want)
		}
	})
}

func TestHeartbeatAndProgressAreNeverNudged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("a", 5*time.Minute, 5*time.Minute), project("b", 5*time.Minute, 5*time.Minute))
		ta := h.add("a", "heartbeat")
		pa := h.proc()
		tb := h.add("b", "reporter")
		pb := h.proc()
		sb := h.session(tb.ID)
		for range 30 {
			pa.say("heartbeat\r\n")
			if err := h.st.Agent.AgentProgress(h.ctx, sb.ID, "still compiling"); err != nil {
				t.Fatal(err)
			}
			advance(4 * time.Minute)
		}
		if len(pa.Writes())+len(pb.Writes()) != 0 {
			t.Fatalf("typed into a live session: %q %q", pa.Writes(), pb.Writes())
		}
		if s := h.session(ta.ID); s.State != supervisor.SessWorking {
			t.Errorf("heartbeat session %v, want working", s.State)
		}
		s := h.session(tb.ID)
		if s.State != supervisor.SessWorking && s.State != supervisor.SessStarting {
			t.Errorf("progress session %v", s.State)
		}
		if _, ok := s.Evidence["board"]; !ok {
			t.Error("board evidence not recorded")
		}
	})
}

func TestOtherLayerKeepsASilentSessionQuiet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "long build")
		p := h.proc()
		p.say("building\r\n")
		h.prober.set(true)
		advance(20 * time.Minute)
		s := h.session(task.ID)
		if s.State != supervisor.SessQuiet || !strings.Contains(s.Why, "CPU in cc1") || len(p.Writes()) != 0 {
			t.Fatalf("state %v why %q writes %q, want quiet with the CPU layer named and no nudge", s.State, s.Why, p.Writes())
		}
		p.say("linking\r\n")
		synctest.Wait()
		if s := h.session(task.ID); s.State != supervisor.SessWorking {
			t.Fatalf("output after quiet: %v, want working", s.State)
		}
		h.prober.set(false)
		advance(5*time.Minute + time.Second)
		if s := h.session(task.ID); s.State != supervisor.SessNudged {
			t.Fatalf("all layers quiet: %v, want nudged", s.State)
		}
	})
}

func TestWindowsArePerProject(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("fast", time.Minute, time.Minute), project("slow", 15*time.Minute, 5*time.Minute))
		tf := h.add("fast", "a")
		h.proc()
		ts := h.add("slow", "b")
		h.proc()
		advance(time.Minute + time.Second)
		if s := h.session(tf.ID); s.State != supervisor.SessNudged {
			t.Errorf("fast project: %v, want nudged after 1m", s.State)
		}
		if s := h.session(ts.ID); s.State == supervisor.SessNudged {
			t.Error("slow project nudged after 1m")
		}
		advance(time.Minute)
		if h.task(tf.ID).State != supervisor.TaskBlocked {
			t.Error("fast project not blocked after 1m+1m")
		}
		advance(13 * time.Minute)
		if s := h.session(ts.ID); s.State != supervisor.SessNudged {
			t.Errorf("slow project: %v, want nudged after 15m", s.State)
		}
	})
}

func TestEarlyExitBlocksWithCodeAndLastLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "crash")
		p := h.proc()
		p.say("\x1b[31mpanic: boom\x1b[0m\r\n")
		synctest.Wait()
		p.exit(3)
		advance(time.Second)
		got := h.task(task.ID)
		if got.State != supervisor.TaskBlocked || !strings.Contains(got.Reason, "code 3") || !strings.Contains(got.Reason, `"panic: boom"`) {
			t.Fatalf("task %v %q, want blocked naming code 3 and the last line", got.State, got.Reason)
		}
	})
}

func TestCommandThatCannotStartBlocksAndStationGoesOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		h.sp.fail = errors.New(`exec: "nope": executable file not found in $PATH`)
		a := h.add("web", "a")
		synctest.Wait()
		got := h.task(a.ID)
		if got.State != supervisor.TaskBlocked || !strings.Contains(got.Reason, "cannot start") || !strings.Contains(got.Reason, "nope") {
			t.Fatalf("task %v %q", got.State, got.Reason)
		}
		h.sp.fail = nil
		b := h.add("web", "b")
		h.proc()
		if h.task(b.ID).State != supervisor.TaskWorking {
			t.Fatal("the station did not go on")
		}
		// Requeue: attempt 2, the old reason kept in the history.
		rq, err := h.st.Tasks.Requeue(h.ctx, a.ID, "fixed PATH")
		if err != nil || rq.Attempt != 2 || rq.State != supervisor.TaskTodo {
			t.Fatalf("requeue: %+v %v", rq, err)
		}
		hist, _ := h.st.Tasks.History(h.ctx, a.ID)
		if !slices.ContainsFunc(hist, func(tr supervisor.Transition) bool {
			return tr.To == supervisor.TaskBlocked && strings.Contains(tr.Reason, "cannot start")
		}) {
			t.Fatalf("history lost the old reason: %+v", hist)
		}
		if _, err := h.st.Tasks.Requeue(h.ctx, b.ID, ""); !errors.Is(err, supervisor.ErrConflict) {
			t.Fatalf("requeue of a working task: %v, want a conflict", err)
		}
	})
}

func TestSendTypesTextThenEnter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "a")
		p := h.proc()
		s := h.session(task.ID)
		if err := h.st.Sessions.Send(h.ctx, s.ID, "hello"); err != nil {
			t.Fatal(err)
		}
		if w := p.Writes(); !slices.Equal(w, []string{"hello"}) {
			t.Fatalf("writes %q", w)
		}
		advance(enterDelay)
		if w := p.Writes(); !slices.Equal(w, []string{"hello", "\r"}) {
			t.Fatalf("writes %q", w)
		}
	})
}

func TestCancelEndsTheSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "a")
		p := h.proc()
		if _, err := h.st.Tasks.Cancel(h.ctx, task.ID); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if h.task(task.ID).State != supervisor.TaskCancelled || p.stops == 0 || len(h.st.Sessions.Sessions()) != 0 {
			t.Fatal("cancel did not end the session")
		}
	})
}

func TestRestartBlocksLostSessions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newMemBoard()
		ctx := context.Background()
		task, _ := b.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "a"})
		b.Claim(ctx, "web", "station")
		b.SaveSession(ctx, supervisor.SessionRecord{ID: task.ID + ".1", TaskID: task.ID, StartedAt: time.Now()})
		cfg := &config.Config{MaxSessions: 4, Projects: []config.Project{project("web", time.Minute, time.Minute)}}
		home := t.TempDir()
		st, err := New(Options{Home: home, Files: testFiles(t, home, t.TempDir()), Config: cfg, Board: b, Spawner: &fakeSpawner{procs: make(chan *fakeProc, 4)}})
		if err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithCancel(ctx)
		done := make(chan error)
		go func() { done <- st.Run(cctx) }()
		synctest.Wait()
		got, _ := b.Task(ctx, task.ID)
		if got.State != supervisor.TaskBlocked || got.Reason != "station restarted: session lost" {
			t.Fatalf("%v %q", got.State, got.Reason)
		}
		if live, _ := b.Sessions(ctx, true); len(live) != 0 {
			t.Fatalf("sessions still live: %+v", live)
		}
		cancel()
		<-done
	})
}

func TestLaptopSleepNudgesNobody(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var offset atomic.Int64
		h := startWith(t, func(o *Options) {
			o.Wall = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		}, project("a", 5*time.Minute, 5*time.Minute), project("b", 5*time.Minute, 5*time.Minute))
		ta := h.add("a", "one")
		pa := h.proc()
		tb := h.add("b", "two")
		pb := h.proc()
		advance(4 * time.Minute)
		offset.Store(int64(2 * time.Hour)) // the lid closed for two hours
		advance(2 * time.Minute)
		if len(pa.Writes())+len(pb.Writes()) != 0 || len(h.notes.kinds()) != 0 {
			t.Fatalf("a 2-hour clock jump nudged: %q %q %v", pa.Writes(), pb.Writes(), h.notes.kinds())
		}
		for _, id := range []string{ta.ID, tb.ID} {
			if s := h.session(id); s.State == supervisor.SessNudged {
				t.Fatalf("%s nudged after a sleep", id)
			}
		}
		// Re-armed, not switched off: a real silence after the wake still counts.
		advance(5 * time.Minute)
		if s := h.session(ta.ID); s.State != supervisor.SessNudged {
			t.Fatalf("after the grace window: %v, want nudged", s.State)
		}
	})
}

func TestDialogOnScreenIsNeverTypedInto(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "a")
		p := h.proc()
		// Claude Code's permission prompt, drawn with cursor moves.
		p.say("\x1b[2J\x1b[1;1HBash command\r\n\x1b[3;1HDo\x1b[3;4Hyou want to proceed?\r\n\x1b[32m❯ 1. Yes\x1b[0m\r\n  2. No\r\n")
		advance(time.Hour)
		if w := p.Writes(); len(w) != 0 {
			t.Fatalf("typed %q into a permission dialog", w)
		}
		s := h.session(task.ID)
		if s.State != supervisor.SessNeedsPermission || h.task(task.ID).State != supervisor.TaskWorking {
			t.Fatalf("state %v task %v, want needs-permission and still working", s.State, h.task(task.ID).State)
		}
		if k := h.notes.kinds(); len(k) < 2 || k[0] != supervisor.NoticePermission {
			t.Fatalf("notices %v, want repeated needs-permission reminders", k)
		}
		if err := h.st.Sessions.Nudge(h.ctx, s.ID); !errors.Is(err, supervisor.ErrConflict) {
			t.Fatalf("nudge now at a dialog: %v, want a refusal", err)
		}
		// A hook says the person answered and the agent works again.
		if err := h.st.Agent.AgentHook(h.ctx, s.ID, supervisor.HookEvent{Event: "PostToolUse", Tool: "Bash"}); err != nil {
			t.Fatal(err)
		}
		if s := h.session(task.ID); s.State != supervisor.SessWorking {
			t.Fatalf("after the hook: %v, want working", s.State)
		}
	})
}

func TestDialogOnScreen(t *testing.T) {
	for _, tt := range []struct {
		out  string
		want bool
	}{
		{"Accessing workspace:\r\n/src/x\r\n Is this a project you created or one you trust?\r\n❯ 1. Yes, proceed\r\n 2. No, exit", true},
		{"\x1b[1mDo you want to proceed?\x1b[0m\r\n❯ 1. Yes", true},
		{"Running tests... ok\r\nAll done.", false},
		{strings.Repeat("x", 10000) + "Do you want to proceed?", true},
		{"Do you want to proceed?" + strings.Repeat("\r\nlater output", 1000), false},
	} {
		if _, got := dialogOnScreen([]byte(tt.out)); got != tt.want {
			t.Errorf("dialogOnScreen(%.40q…) = %v, want %v", tt.out, got, tt.want)
		}
	}
}

func TestBreakerPausesAProjectAndResumeLiftsIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Settings.Breaker = config.Breaker{Count: 3, Within: 10 * time.Minute}
		h := start(t, p, project("other", 5*time.Minute, 5*time.Minute))
		for i := range 3 {
			task := h.add("web", "crash")
			pr := h.proc()
			advance(time.Duration(i) * time.Minute)
			pr.exit(1)
			advance(time.Second)
			if h.task(task.ID).State != supervisor.TaskBlocked {
				t.Fatal("crash did not block")
			}
		}
		fourth := h.add("web", "waits")
		synctest.Wait()
		if got := h.task(fourth.ID).State; got != supervisor.TaskTodo {
			t.Fatalf("after 3 blocks in 10m the next task is %v, want todo (queue paused)", got)
		}
		st, _ := h.st.Control.Status(h.ctx)
		if !strings.Contains(st.Paused["web"], "circuit breaker: 3 blocks") || !strings.Contains(st.Paused["web"], "project resume web") {
			t.Fatalf("status says %q", st.Paused)
		}
		if k := h.notes.kinds(); !slices.Contains(k, supervisor.NoticeBreaker) {
			t.Fatalf("no breaker notice: %v", k)
		}
		// Other projects go on.
		other := h.add("other", "fine")
		h.proc()
		if h.task(other.ID).State != supervisor.TaskWorking {
			t.Fatal("another project was paused too")
		}
		if err := h.st.Projects.ResumeProject(h.ctx, "web"); err != nil {
			t.Fatal(err)
		}
		h.proc()
		if h.task(fourth.ID).State != supervisor.TaskWorking {
			t.Fatal("resume did not restart the queue")
		}
	})
}

// A queue whose agent cannot start at all (its command is missing) is
// paused after the breaker's count, in the same pass that claims them:
// the rest of the queue waits in todo for the fix, not blocked one by one.
func TestBreakerStopsTheClaimsOfThePassThatTrippedIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Settings.Breaker = config.Breaker{Count: 3, Within: 10 * time.Minute}
		board := newMemBoard()
		for i := range 10 {
			if _, err := board.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: fmt.Sprint("queued ", i)}); err != nil {
				t.Fatal(err)
			}
		}
		startWith(t, func(o *Options) {
			o.Board = board
			o.Spawner.(*fakeSpawner).fail = errors.New(`exec: "claude": executable file not found in $PATH`)
		}, p)
		synctest.Wait()
		var blocked, todo int
		all, err := board.Tasks(t.Context(), supervisor.TaskFilter{})
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range all {
			switch task.State {
			case supervisor.TaskBlocked:
				blocked++
			case supervisor.TaskTodo:
				todo++
			}
		}
		if blocked != 3 || todo != 7 {
			t.Errorf("%d blocked and %d todo, want 3 blocked (the breaker's count) and 7 waiting", blocked, todo)
		}
	})
}

func TestBreakerIgnoresSlowBlocksAndPersonBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Settings.Breaker = config.Breaker{Count: 2, Within: 10 * time.Minute}
		h := start(t, p)
		a := h.add("web", "a")
		h.proc().exit(1)
		advance(11 * time.Minute) // outside the breaker's window
		b := h.add("web", "b")
		h.proc()
		if err := h.st.Sessions.Block(h.ctx, b.ID+".1", "I want to look"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		c := h.add("web", "c")
		h.proc()
		if h.task(a.ID).State != supervisor.TaskBlocked || h.task(c.ID).State != supervisor.TaskWorking {
			t.Fatal("the breaker tripped on blocks it should not count")
		}
	})
}

// After the Stop hook a TUI still animates; that is not a new turn. The
// session stays waiting and is nudged one idle window after its turn ended.
func TestWaitingIgnoresTheTUIsAnimation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "a")
		p := h.proc()
		s := h.session(task.ID)
		if err := h.st.Agent.AgentHook(h.ctx, s.ID, supervisor.HookEvent{Event: "Stop"}); err != nil {
			t.Fatal(err)
		}
		for range 9 { // the logo animates for a while
			p.say("\x1b[2K✻ done")
			advance(30 * time.Second)
		}
		if st := h.session(task.ID).State; st != supervisor.SessWaiting {
			t.Fatalf("after the animation: %v, want waiting", st)
		}
		advance(30*time.Second + time.Millisecond)
		if st := h.session(task.ID).State; st != supervisor.SessNudged {
			t.Fatalf("5m after the turn ended: %v, want nudged", st)
		}
		// The nudge is taken as a prompt: its hook ends the wait.
		if err := h.st.Agent.AgentHook(h.ctx, s.ID, supervisor.HookEvent{Event: "UserPromptSubmit"}); err != nil {
			t.Fatal(err)
		}
		if st := h.session(task.ID).State; st != supervisor.SessWorking {
			t.Fatalf("after the prompt hook: %v, want working", st)
		}
	})
}

// A session whose backend outlives the station (tmux) is left running when
// the station stops, its task still working and its record live for the
// next station to adopt.
func TestStopLeavesSurvivingSessionsRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		h.sp.handled = true
		task := h.add("web", "a")
		p := h.proc()
		p.say("working\r\n")
		synctest.Wait()
		h.stop()
		if p.stops != 0 {
			t.Fatal("the station's stop ended a session that outlives it")
		}
		if got := h.task(task.ID); got.State != supervisor.TaskWorking {
			t.Fatalf("task %v %q, want still working", got.State, got.Reason)
		}
		recs, _ := h.board.Sessions(context.Background(), true)
		if len(recs) != 1 || recs[0].Handle == "" || recs[0].Token == "" {
			t.Fatalf("live records %+v, want one with its handle and token", recs)
		}
		p.exit(0) // let the bubble end
	})
}

// A restarted station adopts a session that outlived it: same process, same
// token, its watchdog timed from the last output, not from the restart.
func TestRestartAdoptsSurvivingSessions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		board := newMemBoard()
		sp := &fakeSpawner{procs: make(chan *fakeProc, 4), handled: true}
		home, files := t.TempDir(), t.TempDir()
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Settings.Backend = "tmux"
		cfg := &config.Config{MaxSessions: 4, Projects: []config.Project{p}}
		run := func() (*Station, context.CancelFunc, chan error) {
			st, err := New(Options{Home: home, Files: testFiles(t, home, files), Config: cfg, Board: board, Spawner: &fakeSpawner{procs: make(chan *fakeProc, 4)},
				Spawners: map[string]supervisor.Spawner{"tmux": sp}, Notifier: &recNotifier{}})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- st.Run(ctx) }()
			return st, cancel, done
		}
		st1, cancel1, done1 := run()
		task, _ := st1.Tasks.AddTask(context.Background(), supervisor.NewTask{Project: "web", Title: "long job"})
		synctest.Wait()
		proc := <-sp.procs
		proc.say("step 1\r\n")
		synctest.Wait()
		outAt := time.Now()
		token := ""
		for _, s := range st1.liveSessions() {
			token = s.spec.Token
		}
		advance(2 * time.Minute)
		cancel1()
		<-done1
		// The transcript's mtime is the last output; in this bubble it must
		// be the bubble's time, as it is the wall clock in real life.
		if err := os.Chtimes(filepath.Join(home, "logs", task.ID+".1.log"), outAt, outAt); err != nil {
			t.Fatal(err)
		}

		st2, cancel2, done2 := run()
		defer func() { cancel2(); <-done2; proc.exit(0) }()
		synctest.Wait()
		ss := st2.Sessions.Sessions()
		if len(ss) != 1 || ss[0].PID != proc.pid || ss[0].TaskID != task.ID {
			t.Fatalf("after the restart: %+v, want the same process adopted", ss)
		}
		if got, _ := board.Task(context.Background(), task.ID); got.State != supervisor.TaskWorking {
			t.Fatalf("task %v %q, want still working", got.State, got.Reason)
		}
		if _, ok := st2.Agent.SessionByToken(token); !ok {
			t.Fatal("the agent's token no longer works after the restart")
		}
		// Silent since 2 minutes before the restart: nudged 3 minutes after
		// it (5m after the last output), not 5 minutes after.
		advance(time.Until(outAt.Add(5*time.Minute - time.Second)))
		if ss := st2.Sessions.Sessions(); ss[0].State == supervisor.SessNudged {
			t.Fatalf("nudged early: %+v (last output %v)", ss, outAt)
		}
		advance(2 * time.Second)
		if ss := st2.Sessions.Sessions(); len(ss) != 1 || ss[0].State != supervisor.SessNudged {
			t.Fatalf("5m after the last output: %+v, want nudged", ss)
		}
	})
}

// next_at tells a person when the nudge would really come: a window after
// the latest output, though the loop re-arms its timer lazily.
func TestNextAtFollowsTheLatestOutput(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "a")
		p := h.proc()
		p.say("one\r\n")
		advance(3 * time.Minute)
		p.say("two\r\n")
		synctest.Wait()
		s := h.session(task.ID)
		if s.NextAt == nil || !s.NextAt.Equal(s.LastOutputAt.Add(5*time.Minute)) || s.NextAction != "nudge" {
			t.Fatalf("next_at %v (%s), want last output %v + 5m", s.NextAt, s.NextAction, s.LastOutputAt)
		}
	})
}

// A session's report settles only its own run of the task: once the task
// is on another attempt (here moved under the station, as a restarted or
// partitioned peer would), attempt 1's complete is refused with a
// sentence, and the later run is untouched.
func TestReportOfAnotherAttemptIsRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "twice")
		h.proc().say("working\r\n")
		s := h.session(task.ID)
		if _, err := h.board.Move(h.ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskWorking, BumpAttempt: true, Actor: "peer"}); err != nil {
			t.Fatal(err)
		}
		err := h.st.Agent.AgentComplete(h.ctx, s.ID, "late")
		if !errors.Is(err, supervisor.ErrConflict) || !strings.Contains(err.Error(), "attempt 1 of task "+task.ID+", which is on attempt 2") {
			t.Fatalf("late complete err = %v, want a conflict naming both attempts", err)
		}
		if got := h.task(task.ID); got.State != supervisor.TaskWorking || got.Attempt != 2 || got.Summary != "" {
			t.Fatalf("after the late report the task is %v attempt %d summary %q, want working attempt 2", got.State, got.Attempt, got.Summary)
		}
		if err := h.st.Agent.AgentBlock(h.ctx, s.ID, "late too"); !errors.Is(err, supervisor.ErrConflict) {
			t.Fatalf("late block err = %v, want a conflict", err)
		}
	})
}

// listingSpawner is a fakeSpawner that lists its windows, as tmux does;
// names gives each pid's window name.
type listingSpawner struct {
	*fakeSpawner
	names map[int]string
}

func (l *listingSpawner) Windows() ([]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, p := range l.started {
		out = append(out, fmt.Sprintf("@%d/%s", p.pid, l.names[p.pid]))
	}
	return out, nil
}

func (l *listingSpawner) Adopt(handle string) (supervisor.Proc, bool, error) {
	id, _, _ := strings.Cut(handle, "/")
	return l.fakeSpawner.Adopt(id)
}

// A station that died between starting an agent's window and recording
// its session left the agent running unrecorded: the next station ends
// it, and leaves a window that is no session's (a person's shell) be.
func TestRestartEndsUnrecordedWindows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sp := &listingSpawner{fakeSpawner: &fakeSpawner{procs: make(chan *fakeProc, 4), handled: true}, names: map[int]string{}}
		orphan, _ := sp.Spawn(supervisor.SpawnSpec{})
		mine, _ := sp.Spawn(supervisor.SpawnSpec{})
		sp.names[orphan.Pid()], sp.names[mine.Pid()] = "t7.1", "bash"
		p := project("web", 5*time.Minute, 5*time.Minute)
		home := t.TempDir()
		st, err := New(Options{Home: home, Files: testFiles(t, home, t.TempDir()), Config: &config.Config{MaxSessions: 4, Projects: []config.Project{p}},
			Board: newMemBoard(), Spawner: &fakeSpawner{procs: make(chan *fakeProc, 4)}, Spawners: map[string]supervisor.Spawner{"tmux": sp}, Notifier: &recNotifier{}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- st.Run(ctx) }()
		synctest.Wait()
		defer func() { cancel(); <-done; mine.(handledProc).exit(0) }()
		if orphan.(handledProc).stopCount() == 0 {
			t.Error("the unrecorded session's window was left running")
		}
		if mine.(handledProc).stopCount() != 0 {
			t.Error("a window that is no session's was ended")
		}
	})
}

// testFiles keeps a test station's files on disk as a real one does.
func testFiles(t *testing.T, home, sessions string) supervisor.Files {
	t.Helper()
	fs, err := stationfs.New(home, sessions)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// A session is on the board before its agent runs, with the token its
// processes carry: a station killed between the spawn and the record
// would otherwise leave an agent no restart could find and end
// (e2e/fault TestCrashEndsTheLostSessionsProcesses met it under load). A
// spawn that fails ends the record again.
func TestSessionIsRecordedBeforeItsAgentRuns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		var seen []supervisor.SessionRecord
		h.sp.before = func(spec supervisor.SpawnSpec) {
			recs, _ := h.board.Sessions(context.Background(), true)
			for _, r := range recs {
				if spec.Marker == sessionMarker(r.Token) {
					seen = append(seen, r)
				}
			}
		}
		a := h.add("web", "a")
		h.proc()
		if len(seen) != 1 || seen[0].TaskID != a.ID || seen[0].State != supervisor.SessStarting.String() {
			t.Fatalf("live records carrying the spawn's token when it ran: %+v; want task %s's, starting", seen, a.ID)
		}
		h.sp.fail = errors.New(`exec: "nope": executable file not found in $PATH`)
		seen = nil
		b := h.add("web", "b")
		_ = b
		if _, err := h.st.Tasks.Cancel(h.ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if len(seen) != 1 {
			t.Fatalf("the failing spawn saw %d live records of its own, want 1", len(seen))
		}
		recs, _ := h.board.Sessions(context.Background(), true)
		for _, r := range recs {
			if r.ID == seen[0].ID {
				t.Errorf("the record of a session that never started is still live: %+v", r)
			}
		}
	})
}
