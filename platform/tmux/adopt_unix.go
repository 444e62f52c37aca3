//go:build unix

package tmux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/buildstation/buildstation/supervisor"
)

// Adopt reattaches to a window Spawn started, by its Proc's Handle, after
// the station that started it is gone: the same process goes on, its
// output is tapped again through a new FIFO, and Wait, Write and Stop work
// as before. ok is false, with no error, when the window is gone, its agent
// has exited (the window is then removed), or the handle's window id now
// names another window.
func (s *Spawner) Adopt(handle string) (supervisor.Proc, bool, error) {
	id, name, ok := parseHandle(handle)
	if !ok {
		return nil, false, fmt.Errorf("adopt tmux window: bad handle %q", handle)
	}
	bin, err := tmuxPath()
	if err != nil {
		return nil, false, err
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
	fifo, err := openFIFO(filepath.Join(dir, "out"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, false, fmt.Errorf("adopt tmux window %s: %w", id, err)
	}
	fail := func(err error) (supervisor.Proc, bool, error) {
		fifo.Close()
		os.RemoveAll(dir)
		return nil, false, fmt.Errorf("adopt tmux window %s: %w", id, err)
	}
	piped := "bs-piped-" + randHex()
	wait := exec.CommandContext(ctx, bin, "-S", s.sock, "wait-for", piped)
	wait.Env = clientEnv()
	// pipe-pane with a command replaces the dead station's pipe, whose
	// cat then reads EOF and exits.
	args := []string{"pipe-pane", "-t", w.pane, noFormat(pipeCommand(bin, s.sock, fifo.Name(), piped))}
	if _, err := s.do(ctx, args...); err != nil {
		if missing(err) {
			fifo.Close()
			os.RemoveAll(dir)
			return nil, false, nil
		}
		return fail(err)
	}
	if err := wait.Run(); err != nil {
		return fail(errors.New("output pipe did not attach"))
	}
	return s.newProc(w, dir, fifo), true, nil
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
