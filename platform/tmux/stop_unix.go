//go:build unix

package tmux

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/platform/treekill"
)

// Stop ends the agent's whole tree, as package pty does: SIGTERM (and
// SIGHUP) to the pane's process group, which tmux made the pane process
// lead, and to every other process of its tree; up to grace for the agent
// to exit; then SIGKILL to all that is left. Then the window goes.
//
// Stop is idempotent (treekill.Once): later calls return the first call's
// result.
func (p *proc) Stop(grace time.Duration) error {
	return p.stopOnce.Stop(func() error { return p.stop(grace) })
}

func (p *proc) stop(grace time.Duration) error {
	var errs []error
	if err := (treekill.Tree{Leader: p.w.pid, Marker: p.marker}).Stop(grace, p.done); err != nil {
		errs = append(errs, err)
	}

	// The pane stayed for its exit status (remain-on-exit); it is read.
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	if _, err := p.sp.do(ctx, "kill-window", "-t", p.w.id); err != nil && !missing(err) {
		errs = append(errs, fmt.Errorf("kill window %s of agent %d: %w", p.w.id, p.w.pid, err))
	}
	return errors.Join(errs...)
}

// KillWindow removes the window handle names (a Proc's Handle), when it
// still is that session's window: what a station's fence guard does once
// it has ended the agent of a station that died, whose window (kept by
// remain-on-exit) no station would read and remove. A window already gone
// is not an error.
func (s *Spawner) KillWindow(handle string) error {
	id, name, ok := parseHandle(handle)
	if !ok {
		return fmt.Errorf("kill tmux window: bad handle %q", handle)
	}
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	out, err := s.run(ctx, "display-message", "-p", "-t", id, "#{window_id} #{window_name}")
	if err != nil {
		if missing(err) {
			return nil
		}
		return fmt.Errorf("kill tmux window %s: %w", id, err)
	}
	if f := splitFields(out, 2); f[0] != id || f[1] != name {
		return nil // the id names another window now
	}
	if _, err := s.run(ctx, "kill-window", "-t", id); err != nil && !missing(err) {
		return fmt.Errorf("kill tmux window %s: %w", id, err)
	}
	return nil
}

// Windows lists the handles of the agent windows on the server (every
// window of the station's tmux session but its own "station" window),
// for a restarted station to end those no session record names: a
// station that died between starting a window and recording its session
// left it. No server: none.
func (s *Spawner) Windows() ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	out, err := s.run(ctx, "list-windows", "-t", "="+SessionName, "-F", "#{window_id} #{window_name}")
	if err != nil {
		if missing(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("list tmux windows: %w", err)
	}
	var handles []string
	for line := range strings.Lines(out) {
		f := splitFields(line, 2)
		if f[0] == "" || f[1] == "" || f[1] == "station" {
			continue
		}
		handles = append(handles, makeHandle(f[0], f[1]))
	}
	return handles, nil
}
