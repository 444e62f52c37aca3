//go:build !linux && !windows && !darwin

package notifier

import (
	"fmt"

	"github.com/gen2brain/beeep"

	"github.com/buildstation/buildstation/supervisor"
)

// Notifier shows plain notifications (no click action) where the OS has
// no better way known here.
type Notifier struct {
	o    Options
	icon string
}

// New returns the notifier.
func New(o Options) (*Notifier, error) { return &Notifier{o: o, icon: iconFile(o.Icon)}, nil }

// Notify shows one notice.
func (n *Notifier) Notify(nt supervisor.Notice) error {
	m := newMessage(nt)
	if err := beeep.Notify(m.Title, m.Body, n.icon); err != nil {
		return fmt.Errorf("show a notification: %w", err)
	}
	return nil
}

// Withdraw does nothing: a plain notification cannot be withdrawn.
func (n *Notifier) Withdraw(supervisor.Notice) error { return nil }

// Close does nothing.
func (n *Notifier) Close() error { return nil }
