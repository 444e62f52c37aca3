//go:build unix

package pty

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/creack/pty"

	"github.com/buildstation/buildstation/platform/agentfind"
	"github.com/buildstation/buildstation/supervisor"
)

// Spawn starts spec.Argv in a new pseudo-terminal. The agent leads its own
// session (Setsid) with the terminal as its controlling tty (Setctty), so
// its pgid equals its pid and Stop can signal the whole group at once.
func (Spawner) Spawn(spec supervisor.SpawnSpec) (supervisor.Proc, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("start agent: empty command")
	}
	if err := CheckDir(spec.Dir); err != nil {
		return nil, err
	}
	path, err := lookPath(spec.Argv[0], envValue(spec.Env, "PATH", false))
	if err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	// A placeholder an unfinished install left: say how to finish it,
	// not "exec format error".
	if err := agentfind.Check(agentfind.OS{}, runtime.GOOS, path, filepath.Base(spec.Argv[0])); err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	cmd := &exec.Cmd{Path: path, Args: spec.Argv, Dir: spec.Dir, Env: spec.Env}
	cols, rows := Size(spec.Cols, spec.Rows)
	master, err := pty.StartWithAttrs(cmd, &pty.Winsize{Cols: cols, Rows: rows},
		&syscall.SysProcAttr{Setsid: true, Setctty: true})
	if err != nil {
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	master, err = pollable(master)
	if err != nil {
		// The agent runs but we cannot read its terminal: end it rather
		// than leak it.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	p := newProc(cmd, master)
	p.marker = spec.Marker
	return p, nil
}
