package station

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// windowedMem is a shared board that also keeps watchdog windows per
// project, as pgstore's project_settings does.
type windowedMem struct {
	*sharedMem
	mu      sync.Mutex
	windows map[string]supervisor.BoardWindows
}

func (b *windowedMem) ProjectWindows(context.Context) (map[string]supervisor.BoardWindows, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[string]supervisor.BoardWindows, len(b.windows))
	for k, v := range b.windows {
		out[k] = v
	}
	return out, nil
}

func (b *windowedMem) set(project string, w supervisor.BoardWindows) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.windows[project] = w
}

var _ supervisor.WindowBoard = (*windowedMem)(nil)

// A board window is the team's floor: a session of a project whose board
// window is 15 minutes is nudged after 15 minutes, not after the 1 minute
// this station's config.toml says, and blocked a board block window after
// that; a station whose own window is longer than the board's keeps its
// own. Session info, project info and a change on the board while a
// session runs all follow.
func TestBoardWindowsAreTheFloor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &windowedMem{sharedMem: newSharedMem("A"), windows: map[string]supervisor.BoardWindows{
			"web":  {Idle: 15 * time.Minute, Block: 10 * time.Minute},
			"docs": {Idle: 15 * time.Minute, Block: 10 * time.Minute},
		}}
		web, docs := project("web", time.Minute, time.Minute), project("docs", 20*time.Minute, 20*time.Minute)
		web.Concurrency, docs.Concurrency = 2, 2
		h := startWith(t, func(o *Options) {
			o.Board = b
			o.Config.Lease = 3 * time.Second
		}, web, docs)
		h.board = b.memBoard
		tw := h.add("web", "a")
		h.proc()
		td := h.add("docs", "b")
		h.proc()
		if s := h.session(tw.ID); s.IdleWindow.String() != "15m0s" || s.BlockWindow.String() != "10m0s" {
			t.Errorf("web's session runs with idle %s, block %s; want the board's 15m0s and 10m0s", s.IdleWindow, s.BlockWindow)
		}
		ps, err := h.st.Projects.Projects(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if p.Name == "web" && (p.IdleWindow != "15m0s" || p.BlockWindow != "10m0s") {
				t.Errorf("project web's effective windows: %s, %s", p.IdleWindow, p.BlockWindow)
			}
		}

		advance(time.Minute + time.Second)
		if s := h.session(tw.ID); s.State == supervisor.SessNudged {
			t.Fatal("web was nudged after its local 1m; the board's window is 15m")
		}
		advance(14 * time.Minute)
		if s := h.session(tw.ID); s.State != supervisor.SessNudged {
			t.Fatalf("web: %v after 15m, want nudged", s.State)
		}
		if s := h.session(td.ID); s.State == supervisor.SessNudged {
			t.Fatal("docs was nudged after the board's 15m; its own window, 20m, is longer")
		}
		advance(time.Minute + time.Second)
		if got := h.task(tw.ID); got.State == supervisor.TaskBlocked {
			t.Fatal("web blocked a local block window after the nudge; the board's is 10m")
		}
		advance(9 * time.Minute)
		if got := h.task(tw.ID); got.State != supervisor.TaskBlocked {
			t.Fatalf("web: %s 10m after the nudge, want blocked", got.State)
		}
		// docs nudged at its own 20m (it started a moment after web).
		if s := h.session(td.ID); s.State != supervisor.SessNudged {
			t.Fatalf("docs: %v after 27m, want nudged at its own 20m", s.State)
		}

		// The board raises docs' floor while its session runs: the session
		// takes it at the next beat.
		b.set("docs", supervisor.BoardWindows{Idle: time.Hour, Block: time.Hour})
		advance(time.Second)
		if s := h.session(td.ID); s.BlockWindow.String() != "1h0m0s" {
			t.Errorf("docs' session still runs with block window %s after the board raised it to 1h", s.BlockWindow)
		}
	})
}
