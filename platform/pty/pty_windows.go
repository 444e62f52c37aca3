package pty

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"

	"github.com/buildstation/buildstation/platform/agentfind"
	"github.com/buildstation/buildstation/supervisor"
)

// Spawn starts spec.Argv in a new pseudo console (ConPTY, Windows 10 1809
// and later), inside a Job Object from its first instruction, so Stop can
// end its whole tree. An npm shim (claude.cmd) is replaced by the program
// it runs (see resolveShim); any other .cmd or .bat agent runs through
// cmd.exe with its arguments escaped for it.
func (Spawner) Spawn(spec supervisor.SpawnSpec) (supervisor.Proc, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("start agent: empty command")
	}
	if !IsConPtyAvailable() {
		return nil, fmt.Errorf("start agent: %w", noConPTY())
	}
	if err := CheckDir(spec.Dir); err != nil {
		return nil, err
	}
	pathEnv, pathext := envValue(spec.Env, "PATH", true), envValue(spec.Env, "PATHEXT", true)
	path, err := lookPath(spec.Argv[0], pathEnv, pathext)
	if err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	path, args, err := resolveCommand(path, spec.Argv[1:], os.ReadFile, isFile,
		func() (string, error) { return lookPath("node", pathEnv, pathext) })
	if err != nil {
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	// A placeholder an unfinished npm install left (bin\claude.exe as
	// text): say how to finish it, not Windows' "not a valid application".
	if err := agentfind.Check(agentfind.OS{}, "windows", path, filepath.Base(spec.Argv[0])); err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	app, line, err := commandLine(path, args, cmdExe(), windows.ComposeCommandLine)
	if err != nil {
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	env := spec.Env
	if env == nil {
		env = os.Environ()
	}
	block, err := envBlock(env, os.Getenv("SYSTEMROOT"))
	if err != nil {
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	cols, rows := Size(spec.Cols, spec.Rows)
	c, err := startConsole(app, line, spec.Dir, block, cols, rows)
	if err != nil {
		return nil, fmt.Errorf("start agent %q: %w", spec.Argv[0], err)
	}
	return newProc(c), nil
}

// cmdExe is the system's own cmd.exe, never one found on PATH or in
// %ComSpec%, which a session's environment controls.
func cmdExe() string {
	dir, err := windows.GetSystemDirectory()
	if err != nil || dir == "" {
		dir = `C:\Windows\System32`
	}
	return filepath.Join(dir, "cmd.exe")
}

// DropsPastes: the inbox ConPTY drops the bracketed-paste markers from its
// input pipe, so a paste reaches the agent as keystrokes
// (supervisor.PasteDropper): the station types a one-line pointer to the
// prompt file instead.
func (Spawner) DropsPastes() bool { return true }
