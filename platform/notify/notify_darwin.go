//go:build darwin

package notify

import (
	"fmt"
	"os/exec"

	"github.com/gen2brain/beeep"

	"github.com/buildstation/buildstation/supervisor"
)

// Notifier uses terminal-notifier when it is installed, whose click runs
// "buildstation open <id>"; without it, a plain notification (no click).
type Notifier struct {
	o        Options
	icon     string
	notifier string // terminal-notifier's path, or ""
}

// New looks for terminal-notifier on PATH.
func New(o Options) (*Notifier, error) {
	path, _ := exec.LookPath("terminal-notifier")
	return &Notifier{o: o, icon: iconFile(o.Icon), notifier: path}, nil
}

// Notify shows one notice.
func (n *Notifier) Notify(nt supervisor.Notice) error {
	title, body := text(nt)
	if n.notifier == "" || n.o.Self == "" {
		if err := beeep.Notify(title, body, n.icon); err != nil {
			return fmt.Errorf("show a notification: %w", err)
		}
		return nil
	}
	args := []string{"-title", n.o.AppName, "-subtitle", title, "-message", body, "-group", "buildstation-" + nt.SessionID}
	if nt.SessionID != "" {
		args = append(args, "-execute", fmt.Sprintf("%q open %q", n.o.Self, nt.SessionID))
	}
	if n.icon != "" {
		args = append(args, "-appIcon", n.icon)
	}
	if out, err := exec.Command(n.notifier, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("show a notification with terminal-notifier: %v: %s", err, out)
	}
	return nil
}

// Close does nothing.
func (n *Notifier) Close() error { return nil }
