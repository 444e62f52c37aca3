//go:build unix

package pty

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/platform/internal/proctest"
	"github.com/buildstation/buildstation/supervisor"
)

func TestOutputThenEOF(t *testing.T) {
	p := proctest.Spawn(t, New(), supervisor.SpawnSpec{Argv: []string{"sh", "-c", "echo hello"}})
	out := proctest.Collect(p)
	if err := out.End(t); err != io.EOF {
		t.Errorf("final Read error = %v, want io.EOF", err)
	}
	if !strings.Contains(out.String(), "hello") {
		t.Errorf("output = %q, want it to contain hello", out.String())
	}
	if code, err := proctest.WaitCode(t, p); code != 0 || err != nil {
		t.Errorf("Wait = %d, %v; want 0, nil", code, err)
	}
}

func TestWaitExitCode(t *testing.T) { proctest.ExitCodeCached(t, New()) }

func TestWriteEchoes(t *testing.T) {
	p := proctest.Spawn(t, New(), supervisor.SpawnSpec{Argv: []string{"cat"}})
	out := proctest.Collect(p)
	if _, err := p.Write([]byte("ping-42\n")); err != nil {
		t.Fatal(err)
	}
	// The terminal echoes the line and cat prints it back: twice.
	out.WaitFor(t, "ping-42\r\nping-42\r\n")
}

func TestResize(t *testing.T) { proctest.Resize(t, New(), "\n") }

func TestEnvAndDir(t *testing.T) { proctest.EnvAndDir(t, New()) }

func TestPathFromSpecEnv(t *testing.T) {
	// An agent found only on the session's PATH, not the station's.
	bin := t.TempDir()
	script := filepath.Join(bin, "bs-fake-agent")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho fake agent ran\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := proctest.Spawn(t, New(), supervisor.SpawnSpec{
		Argv: []string{"bs-fake-agent"},
		Env:  []string{"PATH=" + bin + string(filepath.ListSeparator) + os.Getenv("PATH")},
	})
	out := proctest.Collect(p)
	out.WaitFor(t, "fake agent ran")
}

func TestSpawnErrors(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "bs-not-exec"), []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		spec   supervisor.SpawnSpec
		is     error
		substr string
	}{
		{"not found", supervisor.SpawnSpec{Argv: []string{"bs-nope-xyz"}}, exec.ErrNotFound, `"bs-nope-xyz"`},
		{"not executable", supervisor.SpawnSpec{Argv: []string{"bs-not-exec"}, Env: []string{"PATH=" + bin}}, os.ErrPermission, `"bs-not-exec"`},
		{"empty", supervisor.SpawnSpec{}, nil, "empty command"},
		{"bad dir", supervisor.SpawnSpec{Argv: []string{"sh"}, Dir: filepath.Join(bin, "missing")}, os.ErrNotExist, "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New().Spawn(tt.spec)
			if err == nil {
				_ = p.Stop(0)
				t.Fatal("Spawn succeeded, want an error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.substr) || !strings.HasPrefix(err.Error(), "start agent") {
				t.Errorf("error %q: want it to start with \"start agent\" and mention %s", err, tt.substr)
			}
		})
	}
}

func TestWriteEveryCharacter(t *testing.T) { proctest.TypesEveryCharacter(t, New()) }
