package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/faces"
)

// heavy are what the command line must not link: each costs its package
// initialisation (or, for cgo, the dynamic loader) on every verb's start.
var heavy = []string{
	"fyne.io/", "modernc.org/sqlite", "github.com/modelcontextprotocol/", "github.com/jackc/pgx",
	"github.com/google/go-github", "github.com/yuin/goldmark",
	// The terminal emulator logs renders with (internal/screentext) and
	// its Unicode tables: the app renders for the command line.
	"github.com/charmbracelet/", "github.com/mattn/go-runewidth",
	// net/http and crypto/tls (and what they bring: x509, HTTP/2, IDNA),
	// about a megabyte of code: supervisor/client speaks HTTP/1.1 itself,
	// and version --check, which asks GitHub over HTTPS, runs in the app.
	"net/http", "crypto/tls",
	"github.com/buildstation/buildstation/supervisor/station", "github.com/buildstation/buildstation/supervisor/store",
	"github.com/buildstation/buildstation/internal/wiring", "github.com/buildstation/buildstation/app",
	"runtime/cgo",
}

// TestFrontLinksNothingHeavy: the command line links no UI, no SQLite, no
// MCP SDK, no HTTP stack, no station and no cgo, on every OS it ships for.
func TestFrontLinksNothingHeavy(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages")
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command("go", "list", "-deps", ".")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps (%s): %v", goos, err)
		}
		for p := range strings.SplitSeq(string(out), "\n") {
			for _, h := range heavy {
				if strings.HasPrefix(p, h) {
					t.Errorf("%s: the command line links %s; hand its verb to buildstation-app (internal/faces) instead", goos, p)
				}
			}
		}
	}
}

// TestFrontHandsOverToTheApp builds both executables side by side, as the
// packages install them, and runs the front as a person would: a verb it
// links answers itself, the board verbs and the daemon run in the app (the
// daemon in the same process, on Unix), and with no app beside it the
// front says where the app should be.
func TestFrontHandsOverToTheApp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the app")
	}
	dir := t.TempDir()
	front := filepath.Join(dir, "buildstation")
	app := faces.AppBeside(front)
	if runtime.GOOS == "windows" {
		front += ".exe"
	}
	for _, b := range [][2]string{{front, "."}, {app, "../.."}} {
		cmd := exec.Command("go", "build", "-o", b[0], b[1])
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	home := t.TempDir()
	run := func(args ...string) (string, error) {
		cmd := exec.Command(front, append([]string{"--home", home}, args...)...)
		cmd.Env = append(os.Environ(), "BUILDSTATION_HOME=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("board", "status"); err != nil || !strings.Contains(out, "embedded board") {
		t.Errorf("board status through the front: %v: %s", err, out)
	}

	daemon := exec.Command(front, "daemon", "--home", home)
	var log strings.Builder
	daemon.Stdout, daemon.Stderr = &log, &log
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- daemon.Wait() }()
	defer func() {
		daemon.Process.Kill()
		<-done
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, err := run("status")
		if err == nil && strings.Contains(out, "working 0") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the station the front started never answered status: %v: %s\nits log: %s", err, out, log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	// A rendered logs runs in the app (the front links no emulator), --raw
	// in the front: both reach the station and say the same.
	for _, args := range [][]string{{"logs", "t9"}, {"logs", "--raw", "t9"}} {
		if out, err := run(args...); err == nil || !strings.Contains(out, "t9") || strings.Contains(out, "cannot render") {
			t.Errorf("%s through the front: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	if runtime.GOOS == "linux" {
		exe, err := os.Readlink("/proc/" + strconv.Itoa(daemon.Process.Pid) + "/exe")
		if err != nil || filepath.Base(exe) != faces.App {
			t.Errorf("the daemon's process %d runs %q (%v), want the app in the front's place", daemon.Process.Pid, exe, err)
		}
	}
	daemon.Process.Signal(os.Interrupt)
	select {
	case <-done:
		done <- nil
	case <-time.After(30 * time.Second):
		t.Errorf("the station did not stop on an interrupt; its log: %s", log.String())
	}

	// version --check asks a releases API over HTTPS: the app does, once.
	releases := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"tag_name":"v99.0.0","html_url":"https://example.invalid/r/v99.0.0"}`))
	}))
	defer releases.Close()
	check := exec.Command(front, "version", "--check")
	check.Env = append(os.Environ(), "BUILDSTATION_UPDATE_URL="+releases.URL)
	if out, err := check.CombinedOutput(); err != nil || strings.Count(string(out), "buildstation ") != 1 ||
		!strings.Contains(string(out), "Update available: v99.0.0 https://example.invalid/r/v99.0.0") {
		t.Errorf("version --check through the front: %v: %s", err, out)
	}

	if err := os.Remove(app); err != nil {
		t.Fatal(err)
	}
	out, err := run("daemon")
	if err == nil || !strings.Contains(out, "no buildstation-app beside this program") || !strings.Contains(out, "go build -o") {
		t.Errorf("daemon with no app beside the front: %v: %s", err, out)
	}
	if out, err := run("--version"); err != nil || !strings.HasPrefix(out, "buildstation ") {
		t.Errorf("--version with no app beside the front: %v: %s", err, out)
	}
}
