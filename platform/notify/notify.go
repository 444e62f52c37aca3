// Package notify shows the station's notices as desktop notifications
// whose click opens that session's console: a D-Bus notification with an
// "Open console" action on Linux, a toast with protocol activation
// (buildstation://session/<id>) on Windows, terminal-notifier (or a plain
// notification) on macOS. It implements the app package's Notifier; main
// wires it in.
package notify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// Options configure a Notifier.
type Options struct {
	AppName string // "Build Station"
	Icon    []byte // PNG shown beside the text
	// Open shows a session's console in this tray; called from the
	// notifier's own goroutine when a notification is clicked (Linux).
	Open func(sessionID string)
	// Self is this program's path, which a click runs as
	// "Self open <id>" where the OS starts a program (macOS, Windows).
	Self string
}

// Scheme is the URL scheme a Windows toast click opens:
// buildstation://session/<id>.
const Scheme = "buildstation"

// SessionURL is what a click on a notice for session id opens.
func SessionURL(id string) string { return Scheme + "://session/" + id }

// title and body of a notice, with the agreed fallbacks.
func text(n supervisor.Notice) (string, string) {
	title := n.Title
	if title == "" {
		title = "Build Station: " + string(n.Kind)
	}
	body := n.Body
	if n.TaskID != "" && !strings.Contains(body, n.TaskID) {
		body = strings.TrimSpace(body + " (" + n.TaskID + ")")
	}
	return title, body
}

// iconFile writes the icon where the OS's notifier can read it by path.
func iconFile(png []byte) string {
	if len(png) == 0 {
		return ""
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, "BuildStation", "notify-icon.png")
	if old, err := os.ReadFile(path); err == nil && string(old) == string(png) {
		return path
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return ""
	}
	if err := os.WriteFile(path, png, 0o600); err != nil {
		return ""
	}
	return path
}

var errClosed = fmt.Errorf("notifier closed")
