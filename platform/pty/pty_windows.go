package pty

import (
	"errors"
	"fmt"

	"github.com/UserExistsError/conpty"
	"golang.org/x/sys/windows"

	"github.com/buildstation/buildstation/supervisor"
)

// Spawn starts spec.Argv in a new pseudo console (ConPTY, Windows 10 1809
// and later) and puts it in a Job Object so Stop can end its whole tree.
func (Spawner) Spawn(spec supervisor.SpawnSpec) (supervisor.Proc, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("start agent: empty command")
	}
	if err := checkDir(spec.Dir); err != nil {
		return nil, err
	}
	path, err := lookPath(spec.Argv[0], envValue(spec.Env, "PATH", true), envValue(spec.Env, "PATHEXT", true))
	if err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	argv := append([]string{path}, spec.Argv[1:]...)
	cols, rows := size(spec.Cols, spec.Rows)
	opts := []conpty.ConPtyOption{conpty.ConPtyDimensions(int(cols), int(rows))}
	if spec.Dir != "" {
		opts = append(opts, conpty.ConPtyWorkDir(spec.Dir))
	}
	if spec.Env != nil {
		opts = append(opts, conpty.ConPtyEnv(spec.Env))
	}
	cpty, err := conpty.Start(windows.ComposeCommandLine(argv), opts...)
	if err != nil {
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	// A job that cannot be made is not fatal: Stop falls back to walking
	// the process table.
	job, _ := newJob(cpty.Pid())
	return newProc(cpty, job), nil
}
