package station

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// fakeHost is a session's host with no station behind it: it records what
// the session asked of it, and its one pull layer ("cpu") shows life when
// alive is set.
type fakeHost struct {
	mu        sync.Mutex
	alive     bool
	observed  []string // session ids given a baseline
	notices   []supervisor.Notice
	blocks    []hostBlock
	published []supervisor.SessionState // the state of each info the session published
	recorded  []supervisor.SessionState // the states queued for a shared board
}

// hostBlock is one blockFromSession call.
type hostBlock struct {
	taskID, reason, body, actor string
}

func (h *fakeHost) observe(t supervisor.ProbeTarget) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.observed = append(h.observed, t.SessionID)
}

func (h *fakeHost) probe(_ context.Context, _ supervisor.ProbeTarget, _ time.Time) []supervisor.Life {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.alive {
		return nil
	}
	return []supervisor.Life{{Layer: "cpu", At: time.Now(), Detail: "12.0s CPU in cc1"}}
}

func (h *fakeHost) layers() []string              { return []string{"board", "cpu"} }
func (h *fakeHost) gateNote(sessionSpec) string   { return "" }
func (h *fakeHost) gateReason(sessionSpec) string { return "" }
func (h *fakeHost) judgeHead(sessionSpec)         {}
func (h *fakeHost) checkpoint(sessionSpec)        {}
func (h *fakeHost) stationName() string           { return "" }
func (h *fakeHost) wall() time.Time               { return time.Now().Round(0) }

func (h *fakeHost) blockFromSession(spec sessionSpec, reason, body, actor string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.blocks = append(h.blocks, hostBlock{spec.TaskID, reason, body, actor})
}

func (h *fakeHost) recordState(_ string, state supervisor.SessionState) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recorded = append(h.recorded, state)
}

func (h *fakeHost) publishSession(info supervisor.SessionInfo) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.published = append(h.published, info.State)
}

func (h *fakeHost) notify(n supervisor.Notice) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notices = append(h.notices, n)
}

// noticeKinds, blocksSoFar and publishedStates read the record under its lock.
func (h *fakeHost) noticeKinds() []supervisor.NoticeKind {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []supervisor.NoticeKind
	for _, n := range h.notices {
		out = append(out, n.Kind)
	}
	return out
}

func (h *fakeHost) blocksSoFar() []hostBlock {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.blocks)
}

func (h *fakeHost) publishedStates() []supervisor.SessionState {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.published)
}

// lone is a session run against a fakeHost, inside the current synctest
// bubble: no station, board or spawner.
type lone struct {
	host *fakeHost
	proc *fakeProc
	s    *session
	out  chan outcome
}

func runLone(t *testing.T, idle, block time.Duration) *lone {
	t.Helper()
	spec := sessionSpec{ID: "s-1", TaskID: "T-1", Project: "web", Kind: supervisor.KindWork, Title: "migrate",
		IdleWindow: idle, BlockWindow: block, Nudge: testNudge}
	l := &lone{host: &fakeHost{}, proc: newFakeProc(supervisor.SpawnSpec{}, 4242), out: make(chan outcome, 1)}
	log := slog.New(slog.DiscardHandler)
	l.s = newSession(l.host, log, spec, l.proc, newConsole(nil, log), supervisor.KindWork.Base())
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		// A session still running is stopped as a station stopping would.
		cancel()
		<-l.s.done
	})
	go func() { l.out <- l.s.run(ctx) }()
	synctest.Wait()
	return l
}

// state is the session's published state now.
func (l *lone) state() supervisor.SessionState {
	synctest.Wait()
	return l.s.Info().State
}

func TestLoneSessionIsNudgedThenBlockedThroughItsHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := runLone(t, 5*time.Minute, 5*time.Minute)
		l.host.mu.Lock()
		observed := slices.Clone(l.host.observed)
		l.host.mu.Unlock()
		if got := observed; !slices.Equal(got, []string{"s-1"}) {
			t.Fatalf("observed %v, want a baseline for s-1 before the first window", got)
		}
		l.proc.say("Running migration 0042...\r\n")
		advance(5*time.Minute - time.Second)
		if w := l.proc.Writes(); len(w) != 0 || len(l.host.noticeKinds()) != 0 {
			t.Fatalf("typed %q, notices %v before the idle window ran out", w, l.host.noticeKinds())
		}
		advance(time.Second + time.Millisecond)
		if w := l.proc.Writes(); len(w) != 1 || !strings.HasPrefix(w[0], "Note: silent for 5m") {
			t.Fatalf("after the idle window typed %q, want the nudge", w)
		}
		if s := l.state(); s != supervisor.SessNudged {
			t.Fatalf("state %v, want nudged", s)
		}
		if k := l.host.noticeKinds(); !slices.Equal(k, []supervisor.NoticeKind{supervisor.NoticeNudge}) {
			t.Fatalf("notices %v, want one nudge", k)
		}
		advance(enterDelay)
		if w := l.proc.Writes(); len(w) != 2 || w[1] != "\r" {
			t.Fatalf("Enter must follow as its own write; writes %q", w)
		}
		advance(5*time.Minute - enterDelay - time.Second)
		if b := l.host.blocksSoFar(); len(b) != 0 {
			t.Fatalf("blocked before the block window ran out: %+v", b)
		}
		advance(2 * time.Second)
		b := l.host.blocksSoFar()
		if len(b) != 1 || b[0].taskID != "T-1" || b[0].actor != "watchdog" {
			t.Fatalf("blocks %+v, want one by the watchdog of T-1", b)
		}
		for _, want := range []string{"watchdog", "no output for 5 min", "then 5 min more", "Running migration 0042", "board: nothing", "cpu: nothing"} {
			if !strings.Contains(b[0].reason, want) {
				t.Errorf("reason %q lacks %q", b[0].reason, want)
			}
		}
		if want := "Silent 5 min after a nudge — last line: 'Running migration 0042...'"; b[0].body != want {
			t.Errorf("block notice %q\nwant %q", b[0].body, want)
		}
		// The host's block tells the person; the session sends no notice of
		// its own for it.
		if k := l.host.noticeKinds(); !slices.Equal(k, []supervisor.NoticeKind{supervisor.NoticeNudge}) {
			t.Errorf("notices %v, want the nudge alone", k)
		}
		o := <-l.out
		if o.kind != outBlocked || o.reason != b[0].reason {
			t.Fatalf("outcome %v %q, want blocked with the reason on the board", o.kind, o.reason)
		}
		if l.proc.stops == 0 {
			t.Error("the wedged tree was not stopped")
		}
		if p := l.host.publishedStates(); p[len(p)-1] != supervisor.SessEnded {
			t.Errorf("published %v, want it to end with ended", p)
		}
		l.host.mu.Lock()
		recorded := slices.Clone(l.host.recorded)
		l.host.mu.Unlock()
		if r := recorded; !slices.Contains(r, supervisor.SessNudged) || !slices.Contains(r, supervisor.SessEnded) {
			t.Errorf("recorded %v for the shared board, want nudged and ended among them", r)
		}
	})
}

func TestLoneSessionKeptQuietByItsHostsProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := runLone(t, 5*time.Minute, 5*time.Minute)
		l.host.mu.Lock()
		l.host.alive = true
		l.host.mu.Unlock()
		advance(5*time.Minute + time.Millisecond)
		if s := l.state(); s != supervisor.SessQuiet {
			t.Fatalf("state %v, want quiet while a layer shows life", s)
		}
		if w := l.proc.Writes(); len(w) != 0 || len(l.host.noticeKinds()) != 0 {
			t.Fatalf("typed %q, notices %v for a session a layer showed alive", w, l.host.noticeKinds())
		}
		if why := l.s.Info().Why; !strings.Contains(why, "12.0s CPU in cc1") {
			t.Errorf("why %q, want the layer's detail", why)
		}
	})
}
