//go:build !windows

package instance

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// socketName is the tray's endpoint in the home folder.
const socketName = "tray.sock"

func socketPath(home string) string { return filepath.Join(home, socketName) }

func listen(home string) (*Server, error) {
	path := socketPath(home)
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("create home %s: %w", home, err)
	}
	ln, err := net.Listen("unix", path)
	if errors.Is(err, syscall.EADDRINUSE) {
		// Nobody answered the ping: a crashed tray's socket.
		_ = os.Remove(path)
		ln, err = net.Listen("unix", path)
	}
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	_ = os.Chmod(path, 0o600)
	s := &Server{ln: ln}
	s.clean = func() { _ = os.Remove(path) }
	return s, nil
}

func dial(home string) (net.Conn, string, error) {
	c, err := net.DialTimeout("unix", socketPath(home), timeout/time.Duration(3))
	return c, "", err
}

// trayLockName is the file a running tray holds an flock on.
const trayLockName = "tray.lock"

func claimTray(home string) (release func(), ok bool, err error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, false, fmt.Errorf("create home %s: %w", home, err)
	}
	f, held, err := lockFile(filepath.Join(home, trayLockName))
	if err != nil || !held {
		return nil, false, err
	}
	return func() { unlock(f); f.Close() }, true, nil
}
