//go:build unix

package tmux

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/buildstation/buildstation/supervisor"
)

// Adopt reattaches to a window Spawn started, by its Proc's Handle, after
// the station that started it is gone: the same process goes on, its
// output is tapped again through a new pipe, and Wait, Write and Stop work
// as before. ok is false, with no error, when the window is gone, its agent
// has exited (the window is then removed), or the handle's window id now
// names another window.
func (s *Spawner) Adopt(handle string) (supervisor.Proc, bool, error) {
	id, name, ok := parseHandle(handle)
	if !ok {
		return nil, false, fmt.Errorf("adopt tmux window: bad handle %q", handle)
	}
	helper, err := s.helper()
	if err != nil {
		return nil, false, fmt.Errorf("adopt tmux window %s: %w", id, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	w, ok, err := s.liveWindow(ctx, id, name)
	if !ok || err != nil {
		return nil, false, err
	}
	dir, err := s.makeRunDir("adopt-" + randHex())
	if err != nil {
		return nil, false, fmt.Errorf("adopt tmux window %s: %w", id, err)
	}
	pl, err := listenPipe(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, false, fmt.Errorf("adopt tmux window %s: %w", id, err)
	}
	defer pl.close()
	// pipe-pane with a command replaces the dead station's pipe (which
	// tmux closes: nothing held its other end any more).
	args := []string{"pipe-pane", "-t", w.pane, noFormat(pipeCommand(helper, pl.path()))}
	if _, err := s.do(ctx, args...); err != nil {
		os.RemoveAll(dir)
		if missing(err) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("adopt tmux window %s: %w", id, err)
	}
	pipe, err := pl.accept(ctx)
	if err != nil {
		os.RemoveAll(dir)
		return nil, false, fmt.Errorf("adopt tmux window %s: %w", id, err)
	}
	return s.newProc(w, dir, pipe), true, nil
}

// liveWindow finds window id as this station left it: ok is false when it
// is gone, is now another window (its name differs), or its agent has
// exited (the dead window is then closed).
func (s *Spawner) liveWindow(ctx context.Context, id, name string) (_ window, ok bool, _ error) {
	out, err := s.do(ctx, "display-message", "-p", "-t", id, "#{window_id} #{pane_id} #{pane_pid} #{pane_dead} #{window_name}")
	if err != nil {
		if missing(err) {
			return window{}, false, nil
		}
		return window{}, false, fmt.Errorf("adopt tmux window %s: %w", id, err)
	}
	f := splitFields(out, 5)
	pid, perr := strconv.Atoi(f[2])
	if f[0] != id || f[4] != name || perr != nil {
		return window{}, false, nil
	}
	if f[3] == "1" {
		_, _ = s.do(ctx, "kill-window", "-t", id)
		return window{}, false, nil
	}
	return window{id: id, pane: f[1], pid: pid, name: name}, true, nil
}
