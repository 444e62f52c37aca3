//go:build unix

package pty

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// An agent that is an unfinished install's placeholder (text, no #!) is
// not started: the error says how to finish the install, not "exec format
// error".
func TestSpawnRefusesAPlaceholder(t *testing.T) {
	dir := t.TempDir()
	stub := filepath.Join(dir, "claude")
	if err := os.WriteFile(stub, []byte("placeholder: the postinstall script puts the binary here\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := New().Spawn(supervisor.SpawnSpec{Argv: []string{"claude"}, Dir: dir, Env: []string{"PATH=" + dir}})
	if err == nil || !strings.Contains(err.Error(), "placeholder") || !strings.Contains(err.Error(), "Claude Code's install did not finish") {
		t.Fatalf("Spawn of a placeholder: %v", err)
	}
}
