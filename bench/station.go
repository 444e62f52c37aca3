//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
)

// station is a real `buildstation daemon` subprocess on its own home.
type station struct {
	home   string
	cmd    *exec.Cmd
	c      *api.Client
	done   chan struct{}
	Ready  time.Duration // from exec to the first answered status
	logOut *os.File
}

// env is what the station and its sessions see: the binary under test
// first on PATH, so projects may run `buildstation fake-agent`.
func env(home string) []string {
	return append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "BUILDSTATION_HOME="+home)
}

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

// startStation runs the daemon on home and waits until status answers.
func startStation(home string) (*station, error) {
	_ = os.Remove(filepath.Join(home, "station.json")) // never dial a stale one
	out, err := os.OpenFile(filepath.Join(home, "daemon.out"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	s := &station{home: home, done: make(chan struct{}), logOut: out}
	s.cmd = exec.Command(bin, "daemon", "--home", home)
	s.cmd.Env = env(home)
	s.cmd.Stdout, s.cmd.Stderr = out, out
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	t0 := time.Now()
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	deadline := t0.Add(30 * time.Second)
	for {
		if c, err := api.Dial(home); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_, err = c.Status(ctx)
			cancel()
			if err == nil {
				s.Ready, s.c = time.Since(t0), c
				return s, nil
			}
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("station on %s exited before it answered; see %s", home, out.Name())
		default:
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("station on %s did not answer in 30s", home)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (s *station) pid() int { return s.cmd.Process.Pid }

// stop ends the station politely (it ends its sessions), then for good.
func (s *station) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(-s.pid(), syscall.SIGKILL)
		<-s.done
	}
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
	deadline := time.Now().Add(timeout)
	for {
		ss, err := s.c.Sessions(context.Background())
		if err == nil && len(ss) >= want {
			calm := true
			for _, x := range ss {
				if x.LastOutputAt.IsZero() || time.Since(x.LastOutputAt) < quiet {
					calm = false
				}
			}
			if calm {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d sessions of %d settled after %s (%v)", len(ss), want, timeout, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitTasks waits until every task is in a final or blocked column.
func (s *station) waitState(ids []string, state supervisor.TaskState, timeout time.Duration) ([]supervisor.Task, error) {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	deadline := time.Now().Add(timeout)
	for {
		ts, err := s.c.Tasks(context.Background(), supervisor.TaskFilter{State: state})
		if err == nil {
			var got []supervisor.Task
			for _, t := range ts {
				if want[t.ID] {
					got = append(got, t)
				}
			}
			if len(got) == len(ids) {
				return got, nil
			}
			if time.Now().After(deadline) {
				return got, fmt.Errorf("%d of %d tasks %s after %s", len(got), len(ids), state, timeout)
			}
		} else if time.Now().After(deadline) {
			return nil, errors.Join(fmt.Errorf("tasks not %s after %s", state, timeout), err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func contextBG() context.Context { return context.Background() }
