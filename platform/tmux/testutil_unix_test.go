//go:build unix

package tmux

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// newSpawner is a spawner on a fresh socket whose server is killed after
// the test. The socket sits in a short temp folder: a unix socket path has
// a length limit (104 bytes on macOS).
func newSpawner(t *testing.T) *Spawner {
	t.Helper()
	if !Available() {
		t.Skip("tmux is not installed")
	}
	dir, err := os.MkdirTemp("", "bs-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, SocketName)
	t.Cleanup(func() {
		killServer(sock)
		os.RemoveAll(dir)
	})
	s := New(sock)
	s.WaitCheck = 200 * time.Millisecond
	return s
}

func killServer(sock string) {
	cmd := exec.Command("tmux", "-S", sock, "kill-server")
	cmd.Env = clientEnv()
	_ = cmd.Run()
}

// windows lists the server's windows as "id name dead" lines.
func windows(t *testing.T, s *Spawner) string {
	t.Helper()
	out, err := s.run(t.Context(), "list-windows", "-a", "-F", "#{window_id} #{window_name} #{pane_dead}")
	if err != nil && !errors.Is(err, errNoServer) {
		t.Fatal(err)
	}
	return out
}
