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
	"strconv"
	"strings"

	"github.com/buildstation/buildstation/platform/pty"
	"github.com/buildstation/buildstation/supervisor"
)

// Spawn starts spec.Argv in a new window of the station's tmux session,
// named after the session (BUILDSTATION_SESSION_ID in spec.Env).
//
// The order matters: the window starts a launch script that waits; the
// FIFO's reader is open; pipe-pane's command opens the FIFO and signals
// both the script and Spawn; only then does the agent run, so not a byte of
// its output is lost. Every step that fails takes the window down again.
func (s *Spawner) Spawn(spec supervisor.SpawnSpec) (supervisor.Proc, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("start agent: empty command")
	}
	if err := pty.CheckDir(spec.Dir); err != nil {
		return nil, err
	}
	bin, err := tmuxPath()
	if err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	agent, err := pty.LookPath(spec.Argv[0], envValue(spec.Env, "PATH"))
	if err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	envBin, err := exec.LookPath("env")
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
	dir, err := s.makeRunDir("spawn-" + nonce)
	if err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	ready, started := "bs-go-"+nonce, "bs-piped-"+nonce
	script := filepath.Join(dir, "launch.sh")
	if err := os.WriteFile(script, []byte(launchScript(bin, s.sock, ready, envBin, agent, spec.Argv, spec.Env)), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start agent: write launch script: %w", err)
	}
	fifo, err := openFIFO(filepath.Join(dir, "out"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start agent: %w", err)
	}

	args := []string{"new-window", "-d", "-P", "-F", "#{window_id} #{pane_id} #{pane_pid}", "-t", "=" + SessionName + ":", "-n", name}
	if spec.Dir != "" {
		args = append(args, "-c", spec.Dir)
	}
	out, err := s.do(ctx, append(args, "/bin/sh", script)...)
	if err != nil {
		fifo.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	w, err := parseWindow(out)
	if err != nil {
		fifo.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	w.name = name
	fail := func(err error) (supervisor.Proc, error) {
		_, _ = s.do(context.Background(), "kill-window", "-t", w.id)
		fifo.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	cols, rows := pty.Size(spec.Cols, spec.Rows)
	if _, err := s.do(ctx, s.windowSetup(w, cols, rows)...); err != nil {
		return fail(err)
	}
	// The pipe signals Spawn and the script; Spawn waits for it so that
	// a pipe that never attaches is an error now, not a silent agent.
	wait := exec.CommandContext(ctx, bin, "-S", s.sock, "wait-for", started)
	wait.Env = clientEnv()
	if _, err := s.do(ctx, "pipe-pane", "-t", w.pane, noFormat(pipeCommand(bin, s.sock, fifo.Name(), started, ready))); err != nil {
		return fail(err)
	}
	if err := wait.Run(); err != nil {
		return fail(fmt.Errorf("output pipe did not attach: %w", err))
	}
	p := s.newProc(w, dir, fifo)
	p.marker = spec.Marker
	return p, nil
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

// makeRunDir makes a fresh private folder for one window's FIFO and script.
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
