//go:build linux

// Package station_test runs the real buildstation binary as a user would: a
// station subprocess on a temp home, real PTYs, the scripted fake agent and
// real git repos, driven through the CLI and its --json output.
package station_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/e2e/rig"
)

func TestMain(m *testing.M) { rig.Main(m, rig.Options{}) }

// startStation runs `buildstation daemon` on home, with env beyond the
// rig's own, and waits for its API.
func startStation(t *testing.T, home string, env ...string) *rig.Station {
	t.Helper()
	return rig.StartOn(t, home, env...)
}

// projectTOML is a [[projects]] table running the fake agent.
func projectTOML(name, path string, idle, block string, extra ...string) string {
	return fmt.Sprintf("\n[[projects]]\nname = %q\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\nidle_window = %q\nblock_window = %q\n%s\n",
		name, path, idle, block, strings.Join(extra, "\n"))
}

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
