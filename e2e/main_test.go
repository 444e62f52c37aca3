//go:build linux

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
)

var bin string // the buildstation binary under test

// TestMain builds buildstation once, as the station ships: without cgo.
func TestMain(m *testing.M) {
	var cleanup func()
	var err error
	bin, cleanup, err = e2erig.Build("bs-e2e-claude-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// claudeBin finds the Claude Code CLI: $CLAUDE_BIN, else the copy CI
// installs under <repo>/.cache/claude, else PATH. Without one the test
// skips on a developer's machine but fails in CI, where a silently skipped
// e2e suite would look like a passing one.
func claudeBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CLAUDE_BIN"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("CLAUDE_BIN=%s: %v", p, err)
		}
		return p
	}
	if p, err := filepath.Abs("../.cache/claude/node_modules/.bin/claude"); err == nil {
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
