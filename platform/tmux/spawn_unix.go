//go:build unix

package tmux

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/buildstation/buildstation/platform/agentfind"
	"github.com/buildstation/buildstation/platform/pty"
	"github.com/buildstation/buildstation/supervisor"
)

// Spawn starts spec.Argv in a new window of the station's tmux session,
// named after the session (BUILDSTATION_SESSION_ID in spec.Env).
//
// The order matters: the window starts a launch script that waits; the
// pane's output pipe is opened (pipe-pane) and handed to this process
// (see HandOff); only then is the script let go to run the agent, so not a
// byte of its output is lost. Every step that fails takes the window down
// again.
func (s *Spawner) Spawn(spec supervisor.SpawnSpec) (supervisor.Proc, error) {
	bin, agent, envBin, err := programs(spec)
	if err != nil {
		return nil, err
	}
	helper, err := s.helper()
	if err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	if err := s.ensureSession(ctx); err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}

	nonce := randHex()
	name := envValue(spec.Env, "BUILDSTATION_SESSION_ID")
	if name == "" {
		name = "bs-" + nonce
	}
	ready := "bs-go-" + nonce
	dir, script, pl, err := s.prepareLaunch(nonce, launchScript(bin, s.sock, ready, envBin, agent, spec.Argv, spec.Env))
	if err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	defer pl.close()
	args := []string{"new-window", "-d", "-P", "-F", "#{window_id} #{pane_id} #{pane_pid}", "-t", "=" + SessionName + ":", "-n", name}
	if spec.Dir != "" {
		args = append(args, "-c", spec.Dir)
	}
	out, err := s.do(ctx, append(args, "/bin/sh", script)...)
	var w window
	if err == nil {
		w, err = parseWindow(out)
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	w.name = name
	pipe, err := s.readyWindow(ctx, helper, w, spec, pl, ready)
	if err != nil {
		_, _ = s.do(context.Background(), "kill-window", "-t", w.id)
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	p := s.newProc(w, dir, pipe)
	p.marker = spec.Marker
	return p, nil
}

// programs checks spec and finds the programs a launch needs: tmux, the
// agent (on the session's PATH) and env.
func programs(spec supervisor.SpawnSpec) (bin, agent, envBin string, err error) {
	if len(spec.Argv) == 0 {
		return "", "", "", errors.New("start agent: empty command")
	}
	if err := pty.CheckDir(spec.Dir); err != nil {
		return "", "", "", err
	}
	if bin, err = tmuxPath(); err != nil {
		return "", "", "", fmt.Errorf("start agent: %w", err)
	}
	if agent, err = pty.LookPath(spec.Argv[0], envValue(spec.Env, "PATH")); err != nil {
		return "", "", "", fmt.Errorf("start agent: %w", err)
	}
	// A placeholder an unfinished install left: say how to finish it, as
	// the pty backend does.
	if err = agentfind.Check(agentfind.OS{}, runtime.GOOS, agent, filepath.Base(spec.Argv[0])); err != nil {
		return "", "", "", fmt.Errorf("start agent: %w", err)
	}
	if envBin, err = exec.LookPath("env"); err != nil {
		return "", "", "", fmt.Errorf("start agent: %w", err)
	}
	return bin, agent, envBin, nil
}

// prepareLaunch makes the spawn's private folder with its launch script
// and the socket its output pipe will be handed over on; on error nothing
// is left behind.
func (s *Spawner) prepareLaunch(nonce, launch string) (dir, script string, pl *pipeListener, err error) {
	if dir, err = s.makeRunDir("spawn-" + nonce); err != nil {
		return "", "", nil, err
	}
	script = filepath.Join(dir, "launch.sh")
	if err := os.WriteFile(script, []byte(launch), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", "", nil, fmt.Errorf("write launch script: %w", err)
	}
	if pl, err = listenPipe(dir); err != nil {
		os.RemoveAll(dir)
		return "", "", nil, err
	}
	return dir, script, pl, nil
}

// readyWindow sizes the new window, opens its output pipe and takes it
// over, then lets the launch script run the agent. Spawn waits for the
// pipe so that a pipe that never attaches is an error now, not a silent
// agent.
func (s *Spawner) readyWindow(ctx context.Context, helper string, w window, spec supervisor.SpawnSpec, pl *pipeListener, ready string) (*os.File, error) {
	cols, rows := pty.Size(spec.Cols, spec.Rows)
	if _, err := s.do(ctx, s.windowSetup(w, cols, rows)...); err != nil {
		return nil, err
	}
	if _, err := s.do(ctx, "pipe-pane", "-t", w.pane, noFormat(pipeCommand(helper, pl.path()))); err != nil {
		return nil, err
	}
	pipe, err := pl.accept(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := s.do(ctx, "wait-for", "-S", ready); err != nil {
		pipe.Close()
		return nil, err
	}
	return pipe, nil
}

// windowSetup is the command list that readies a fresh window: its
// options (also set globally, but a server started by an older station
// may lack them) and its size. No hook: the spawner's monitor learns of
// the exit.
func (s *Spawner) windowSetup(w window, cols, rows uint16) []string {
	return []string{
		"set-option", "-w", "-t", w.id, "remain-on-exit", "on",
		";", "set-option", "-w", "-t", w.id, "automatic-rename", "off",
		";", "set-option", "-w", "-t", w.id, "allow-rename", "off",
		";", "resize-window", "-t", w.id, "-x", strconv.Itoa(int(cols)), "-y", strconv.Itoa(int(rows)),
	}
}

// window is one agent window as tmux reports it.
type window struct {
	id, pane, name string
	pid            int
}

// parseWindow reads "#{window_id} #{pane_id} #{pane_pid}".
func parseWindow(out string) (window, error) {
	f := strings.Fields(out)
	if len(f) < 3 {
		return window{}, fmt.Errorf("unexpected tmux answer %q", out)
	}
	pid, err := strconv.Atoi(f[2])
	if err != nil || !strings.HasPrefix(f[0], "@") || !strings.HasPrefix(f[1], "%") {
		return window{}, fmt.Errorf("unexpected tmux answer %q", out)
	}
	return window{id: f[0], pane: f[1], pid: pid}, nil
}

// makeRunDir makes a fresh private folder for one window's script and
// the socket its output pipe is handed over on.
func (s *Spawner) makeRunDir(name string) (string, error) {
	s.sweep()
	dir := filepath.Join(s.runDir(), name)
	if err := os.MkdirAll(s.runDir(), 0o700); err != nil {
		return "", err
	}
	_ = os.RemoveAll(dir)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	return dir, nil
}

func randHex() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
