//go:build linux && cgo

package tray_test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
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
	pg := newServer(t)
	display := startXvfb(t)
	bus := privateBus(t)
	w := newWatcher(t, bus)
	cfg := fmt.Sprintf("board = %q\nstation = \"buildbox\"\nlease = \"30s\"\n\n[[projects]]\nname = \"web\"\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\n",
		pg.url(), t.TempDir())
	home := rig.WriteConfig(t, cfg)
	s := rig.StartOn(t, home)
	out := startTray(t, home, display, bus, "--hidden")

	it := w.waitItem(t, 60*time.Second, out)
	id := s.AddTask("web", "Add /healthz", "print ready; read-prompt go?; complete added /healthz")
	w.waitView(t, it, 60*time.Second, "a working session", func(v view) bool {
		return strings.Contains(v.Tooltip, "Working 1") && !strings.Contains(v.Tooltip, "unreachable")
	})
	s.WaitTranscript(id, "go?", 30*time.Second)

	pg.ctl(t, "stop", "-m", "fast")
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

	pg.start(t)
	w.waitView(t, it, 90*time.Second, "the board back", func(v view) bool {
		return !strings.Contains(v.Tooltip, "unreachable") && strings.Contains(v.Tooltip, "Working 0") &&
			len(v.Menu) > 0 && !strings.Contains(v.Menu[0], "unreachable")
	})
	s.WaitState(id, "done", 30*time.Second)
}

// server is a PostgreSQL server of the test's own (the shared one of
// BUILDSTATION_TEST_PG must not be stopped under other tests), made with
// the binaries .ci/postgres.sh names.
type server struct {
	bin, as, dir string
	port         int
}

func newServer(t *testing.T) *server {
	t.Helper()
	bin := os.Getenv("BUILDSTATION_TEST_PG_BIN")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("BUILDSTATION_TEST_PG_BIN is not set: CI must eval .ci/postgres.sh before the tests")
		}
		t.Skip("BUILDSTATION_TEST_PG_BIN is not set; run eval \"$(bash .ci/postgres.sh)\"")
	}
	dir, err := os.MkdirTemp("", "bs-tray-pg-")
	if err != nil {
		t.Fatal(err)
	}
	s := &server{bin: bin, as: os.Getenv("BUILDSTATION_TEST_PG_USER"), dir: dir, port: freePort(t)}
	if s.as != "" { // root: the server runs as its own user
		u, err := user.Lookup(s.as)
		if err != nil {
			t.Fatal(err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		_ = s.cmd("pg_ctl", "-D", s.data(), "-w", "stop", "-m", "immediate").Run()
		os.RemoveAll(dir)
	})
	if out, err := s.cmd("initdb", "-D", s.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	s.start(t)
	return s
}

func (s *server) data() string { return filepath.Join(s.dir, "data") }

func (s *server) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable&connect_timeout=2", s.port)
}

func (s *server) cmd(prog string, args ...string) *exec.Cmd {
	path := filepath.Join(s.bin, prog)
	if s.as != "" {
		return exec.Command("runuser", append([]string{"-u", s.as, "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

func (s *server) ctl(t *testing.T, args ...string) {
	t.Helper()
	args = append([]string{"-D", s.data(), "-l", filepath.Join(s.dir, "server.log"), "-w", "-t", "60"}, args...)
	if out, err := s.cmd("pg_ctl", args...).CombinedOutput(); err != nil {
		t.Fatalf("pg_ctl %v: %v\n%s", args, err, out)
	}
}

func (s *server) start(t *testing.T) {
	t.Helper()
	s.ctl(t, "start", "-o", fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off", s.port, s.dir))
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
