//go:build linux

package notify

import (
	"fmt"
	"sync"

	"github.com/godbus/dbus/v5"

	"github.com/buildstation/buildstation/supervisor"
)

const (
	dbusDest  = "org.freedesktop.Notifications"
	dbusPath  = "/org/freedesktop/Notifications"
	dbusIface = "org.freedesktop.Notifications"
)

// Notifier sends org.freedesktop.Notifications calls on the session bus
// and keeps the connection, so it hears ActionInvoked for its own
// notifications and opens that session's console.
type Notifier struct {
	o    Options
	icon string
	conn *dbus.Conn
	sig  chan *dbus.Signal

	mu       sync.Mutex
	sessions map[uint32]string // notification id → session id
	closed   bool
}

// New connects to the session bus.
func New(o Options) (*Notifier, error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, fmt.Errorf("connect to the D-Bus session bus for notifications: %w", err)
	}
	n := &Notifier{o: o, icon: iconFile(o.Icon), conn: conn, sig: make(chan *dbus.Signal, 16), sessions: map[uint32]string{}}
	if err := conn.AddMatchSignal(dbus.WithMatchInterface(dbusIface), dbus.WithMatchObjectPath(dbusPath)); err != nil {
		conn.Close()
		return nil, fmt.Errorf("listen for notification clicks: %w", err)
	}
	conn.Signal(n.sig)
	go n.listen()
	return n, nil
}

// listen handles clicks until the connection closes (Close).
func (n *Notifier) listen() {
	for s := range n.sig {
		switch s.Name {
		case dbusIface + ".ActionInvoked":
			if len(s.Body) < 2 {
				continue
			}
			id, _ := s.Body[0].(uint32)
			n.mu.Lock()
			session, ok := n.sessions[id]
			n.mu.Unlock()
			if ok && n.o.Open != nil {
				n.o.Open(session)
			}
		case dbusIface + ".NotificationClosed":
			if len(s.Body) < 1 {
				continue
			}
			id, _ := s.Body[0].(uint32)
			n.mu.Lock()
			delete(n.sessions, id)
			n.mu.Unlock()
		}
	}
}

// Notify shows one notice; "default" (a click on the body) and the "Open
// console" button both open the session's console.
func (n *Notifier) Notify(nt supervisor.Notice) error {
	n.mu.Lock()
	closed := n.closed
	n.mu.Unlock()
	if closed {
		return errClosed
	}
	title, body := text(nt)
	var actions []string
	if nt.SessionID != "" {
		actions = []string{"default", "Open console", "open", "Open console"}
	}
	urgency := byte(1)
	if nt.Kind == supervisor.NoticeBlock || nt.Kind == supervisor.NoticePermission {
		urgency = 2
	}
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(urgency)}
	var id uint32
	call := n.conn.Object(dbusDest, dbusPath).Call(dbusIface+".Notify", 0,
		n.o.AppName, uint32(0), n.icon, title, body, actions, hints, int32(-1))
	if err := call.Store(&id); err != nil {
		return fmt.Errorf("show a notification: %w", err)
	}
	if nt.SessionID != "" {
		n.mu.Lock()
		n.sessions[id] = nt.SessionID
		n.mu.Unlock()
	}
	return nil
}

// Close drops the bus connection.
func (n *Notifier) Close() error {
	n.mu.Lock()
	n.closed = true
	n.mu.Unlock()
	return n.conn.Close()
}
