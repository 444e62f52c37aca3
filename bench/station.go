//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// station is a real `buildstation daemon` subprocess on its own home (the
// e2e suites' harness runs it), with an API client.
type station struct {
	*rig.Daemon
	c      *client.Client
	Ready  time.Duration // from exec to the first answered status
	logOut *os.File
}

// env is what the station and its sessions see: the binary under test
// first on PATH, so projects may run `buildstation fake-agent`, and a
// cache folder beside the home for the sessions' own files.
func env(home string) []string { return rig.Env(bin, home) }

// newHome makes a home with config.toml.
func newHome(name, cfg string) (string, error) {
	home := filepath.Join(workDir, name)
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", err
	}
	return home, os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600)
}

// stationOn makes a home named name with config cfg and starts a station
// on it.
func stationOn(name, cfg string) (*station, string, error) {
	home, err := newHome(name, cfg)
	if err != nil {
		return nil, "", err
	}
	st, err := startStation(home)
	return st, home, err
}

// endTmux kills the tmux server of a station on home, if it ran one: its
// sessions outlive the station by design, and a bench must leave nothing
// running (a flooding pane would load the machine for good).
func endTmux(home string) {
	c := exec.Command("tmux", "-S", filepath.Join(home, "tmux.sock"), "kill-server")
	c.Env = env(home)
	_ = c.Run()
}

// startStation runs the daemon on home and waits until status answers,
// timing it: every 2 ms, as start-up is one of the figures.
func startStation(home string) (*station, error) {
	_ = os.Remove(filepath.Join(home, "station.json")) // never dial a stale one
	out, err := os.OpenFile(filepath.Join(home, "daemon.out"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	d, err := rig.StartDaemon(bin, home, env(home), out)
	if err != nil {
		out.Close()
		return nil, err
	}
	s := &station{Daemon: d, logOut: out}
	if err := d.WaitReady(30*time.Second, 2*time.Millisecond); err != nil {
		s.stop()
		return nil, fmt.Errorf("%w; see %s", err, out.Name())
	}
	s.Ready = time.Since(t0)
	live.Store(s, home)
	if s.c, err = client.Dial(home); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// stop ends the station politely (it ends its sessions), then for good.
func (s *station) stop() {
	live.Delete(s)
	s.StopWithin(20 * time.Second)
	s.logOut.Close()
}

// addTasks adds n tasks to project through the API.
func (s *station) addTasks(project string, n int) ([]string, error) {
	ids := make([]string, 0, n)
	for i := range n {
		t, err := s.c.AddTask(context.Background(), supervisor.NewTask{Project: project, Title: fmt.Sprintf("%s %d", project, i)})
		if err != nil {
			return ids, err
		}
		ids = append(ids, t.ID)
	}
	return ids, nil
}

// waitSessions waits until want sessions run and none printed for quiet.
func (s *station) waitSessions(want int, quiet, timeout time.Duration) error {
	return testwait.Poll(timeout, fmt.Sprintf("%d sessions to settle", want), func() error {
		ss, err := s.c.Sessions(context.Background())
		if err != nil {
			return err
		}
		if len(ss) < want {
			return fmt.Errorf("%d sessions", len(ss))
		}
		for _, x := range ss {
			if x.LastOutputAt.IsZero() || time.Since(x.LastOutputAt) < quiet {
				return fmt.Errorf("session %s printed within %s", x.ID, quiet)
			}
		}
		return nil
	})
}

// waitState waits until every task of ids is in state, and returns them.
func (s *station) waitState(ids []string, state supervisor.TaskState, timeout time.Duration) ([]supervisor.Task, error) {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var got []supervisor.Task
	err := testwait.Poll(timeout, fmt.Sprintf("%d tasks %s", len(ids), state), func() error {
		ts, err := s.c.Tasks(context.Background(), supervisor.TaskFilter{State: state})
		if err != nil {
			return err
		}
		got = got[:0]
		for _, t := range ts {
			if want[t.ID] {
				got = append(got, t)
			}
		}
		if len(got) < len(ids) {
			return fmt.Errorf("%d of them", len(got))
		}
		return nil
	})
	return got, err
}

func contextBG() context.Context { return context.Background() }
