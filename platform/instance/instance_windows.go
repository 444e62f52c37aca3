//go:build windows

package instance

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// fileName records the tray's loopback port and token in the home folder.
const fileName = "tray.json"

type trayFile struct {
	Addr  string `json:"addr"`
	Token string `json:"token"`
}

func listen(home string) (*Server, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("create home %s: %w", home, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the tray: %w", err)
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		ln.Close()
		return nil, fmt.Errorf("make the tray token: %w", err)
	}
	tf := trayFile{Addr: ln.Addr().String(), Token: hex.EncodeToString(b)}
	data, _ := json.Marshal(tf)
	path := filepath.Join(home, fileName)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	s := &Server{ln: ln, token: tf.Token}
	s.clean = func() { _ = os.Remove(path) }
	return s, nil
}

func dial(home string) (net.Conn, string, error) {
	data, err := os.ReadFile(filepath.Join(home, fileName))
	if err != nil {
		return nil, "", err
	}
	var tf trayFile
	if err := json.Unmarshal(data, &tf); err != nil {
		return nil, "", err
	}
	c, err := net.DialTimeout("tcp", tf.Addr, timeout/3)
	return c, tf.Token, err
}

// claimTray takes a named mutex for the home in this logon session
// (Local\): one tray per home per desktop, released by the OS when the
// tray ends however it ends.
func claimTray(home string) (release func(), ok bool, err error) {
	sum := sha256.Sum256([]byte(strings.ToLower(filepath.Clean(home))))
	name, err := windows.UTF16PtrFromString(`Local\BuildStation-tray-` + hex.EncodeToString(sum[:8]))
	if err != nil {
		return nil, false, err
	}
	h, err := windows.CreateMutex(nil, false, name)
	if errors.Is(err, windows.ERROR_ALREADY_EXISTS) {
		windows.CloseHandle(h)
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("create the tray's mutex: %w", err)
	}
	return func() { windows.CloseHandle(h) }, true, nil
}
