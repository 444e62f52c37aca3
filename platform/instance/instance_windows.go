//go:build windows

package instance

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
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
