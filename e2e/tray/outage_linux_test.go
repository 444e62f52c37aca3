//go:build linux && cgo

package tray_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A shared PostgreSQL board stops under a station while its agent works:
// the agent completes all the same (the station queues the transitions),
// the tray's tooltip and its menu's first line, read over D-Bus as a
// desktop's tray host reads them, say "Board unreachable since HH:MM:SS,
// retrying (N transitions queued)" with the same time `status` says;
// started again, the line goes and the task is done.
func TestTrayShowsSharedBoardOutage(t *testing.T) {
	pg := rig.NewPostgres(t) // its own: stopping it pulls no other test's board away
	display := startXvfb(t)
	bus := privateBus(t)
	w := newWatcher(t, bus)
	cfg := fmt.Sprintf("board = %q\nstation = \"buildbox\"\nlease = \"30s\"\n\n[[projects]]\nname = \"web\"\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\n",
		pg.URL("postgres", pg.Port), t.TempDir())
	home := rig.WriteConfig(t, cfg)
	s := rig.StartOn(t, home)
	out := startTray(t, home, display, bus, "--hidden")

	it := w.waitItem(t, 60*time.Second, out)
	id := s.AddTask("web", "Add /healthz", "print ready; read-prompt go?; complete added /healthz")
	w.waitView(t, it, 60*time.Second, "a working session", func(v view) bool {
		return strings.Contains(v.Tooltip, "Working 1") && !strings.Contains(v.Tooltip, "unreachable")
	})
	s.WaitTranscript(id, "go?", 30*time.Second)

	pg.Stop()
	s.Must("session", "send", id+".1", "yes") // the agent completes; the board is away
	away := w.waitView(t, it, 60*time.Second, "the board away, with transitions queued", func(v view) bool {
		return strings.HasPrefix(v.Tooltip, "Build Station: Board unreachable since ") &&
			len(v.Menu) > 0 && strings.HasPrefix(v.Menu[0], "Board unreachable since ") &&
			strings.HasSuffix(v.Menu[0], "transitions queued)")
	})
	t.Logf("while the board is away, the tooltip: %q; the menu's first line: %q", away.Tooltip, away.Menu[0])
	since := regexp.MustCompile(`unreachable since (\d\d:\d\d:\d\d), retrying`)
	tray := since.FindStringSubmatch(away.Menu[0])
	status, _, _ := s.Run("status")
	cli := since.FindStringSubmatch(status)
	if tray == nil || cli == nil || tray[1] != cli[1] {
		t.Errorf("the tray says %q, status says %q: not the same words and time", away.Menu[0], status)
	}
	if !strings.Contains(away.Tooltip, " — Working ") {
		t.Errorf("the tooltip lost the counts while the board is away: %q", away.Tooltip)
	}

	pg.Start()
	w.waitView(t, it, 90*time.Second, "the board back", func(v view) bool {
		return !strings.Contains(v.Tooltip, "unreachable") && strings.Contains(v.Tooltip, "Working 0") &&
			len(v.Menu) > 0 && !strings.Contains(v.Menu[0], "unreachable")
	})
	s.WaitState(id, "done", 30*time.Second)
}
