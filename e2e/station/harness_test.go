//go:build linux

// Package station_test runs the real buildstation binary as a user would: a
// station subprocess on a temp home, real PTYs, the scripted fake agent and
// real git repos, driven through the CLI and its --json output.
package station_test

import (
	"os"
	"testing"

	"github.com/buildstation/buildstation/e2e/rig"
)

func TestMain(m *testing.M) { rig.Main(m, rig.Options{}) }

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
