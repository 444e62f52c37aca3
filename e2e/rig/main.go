package rig

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// mainPkg is the buildstation command, built by import path so that a test
// package's directory does not matter.
const mainPkg = "github.com/buildstation/buildstation"

// Options say how Main builds the binary and what a suite cannot run
// without.
type Options struct {
	// CGO builds buildstation with cgo, as the tray ships; without it the
	// build is the station's, as it ships on a headless box.
	CGO bool
	// Need is a program the whole suite needs (tmux): missing, Main says so
	// in one line and exits 0 without running a test.
	Need string
}

var bin string // the buildstation binary under test, built by Main

// Main is an e2e suite's TestMain: it builds buildstation once, so every
// test in the binary drives the same build, runs the tests, removes the
// build and exits with the tests' code.
func Main(m *testing.M, o Options) {
	if o.Need != "" {
		if _, err := exec.LookPath(o.Need); err != nil {
			fmt.Printf("%s is not installed; skipping these end-to-end tests\n", o.Need)
			os.Exit(0)
		}
	}
	dir, err := build(o.CGO)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "buildstation")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Bin is the buildstation binary Main built.
func Bin() string {
	if bin == "" {
		panic("rig.Bin: no binary; the suite's TestMain must call rig.Main")
	}
	return bin
}

var cgoBuild struct {
	once sync.Once
	bin  string
	err  error
}

// BinCGO is buildstation built with cgo (the tray and the dashboard), for
// a test of a suite built without it; built once, on first use, and left
// in the temporary folder for the run.
func BinCGO(t *testing.T) string {
	t.Helper()
	cgoBuild.once.Do(func() {
		dir, err := build(true)
		cgoBuild.bin, cgoBuild.err = filepath.Join(dir, "buildstation"), err
	})
	if cgoBuild.err != nil {
		t.Fatal(cgoBuild.err)
	}
	return cgoBuild.bin
}

// build compiles buildstation into a fresh temporary directory.
func build(cgo bool) (string, error) {
	dir, err := os.MkdirTemp("", "bs-e2e-")
	if err != nil {
		return "", fmt.Errorf("build buildstation: %w", err)
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "buildstation"), mainPkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if cgo {
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("build buildstation (cgo %v): %w\n%s", cgo, err, out)
	}
	return dir, nil
}

// ClaudeBin finds the Claude Code CLI: $CLAUDE_BIN, else the copy CI
// installs under <repo>/.cache/claude, else PATH. Without one the test
// skips on a developer's machine but fails in CI, where a silently skipped
// suite would look like a passing one.
func ClaudeBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CLAUDE_BIN"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("CLAUDE_BIN=%s: %v", p, err)
		}
		return p
	}
	if root, err := repoRoot(); err == nil {
		p := filepath.Join(root, ".cache", "claude", "node_modules", ".bin", "claude")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("claude"); err == nil {
		return p
	}
	const how = "install it with `npm install --prefix .cache/claude @anthropic-ai/claude-code@2.1.328` or set CLAUDE_BIN"
	if os.Getenv("CI") == "true" {
		t.Fatal("Claude Code CLI not found (fail, not skip, in CI); " + how)
	}
	t.Skip("Claude Code CLI not found; " + how)
	return ""
}

// repoRoot is the folder holding go.mod, above the test's own: a test runs
// in its package's folder, however deep under e2e/ that is.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod above the test's folder")
		}
		dir = up
	}
}
