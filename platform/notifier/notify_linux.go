//go:build linux

package notifier

import (
	"fmt"
	"slices"
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
	o      Options
	icon   string
	conn   *dbus.Conn
	sig    chan *dbus.Signal
	markup bool // the server reads bodies as markup ("body-markup")

	mu       sync.Mutex
	sessions map[uint32]shown  // notification id → what it shows
	groups   map[string]uint32 // Group → the notification showing it
	closed   bool
}

// New connects to the session bus.
func New(o Options) (*Notifier, error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, fmt.Errorf("connect to the D-Bus session bus for notifications: %w", err)
	}
	n := &Notifier{o: o, icon: iconFile(o.Icon), conn: conn, sig: make(chan *dbus.Signal, 16),
		sessions: map[uint32]shown{}, groups: map[string]uint32{}}
	// A server that cannot be asked is assumed to read markup, so the body
	// is escaped: a stray "&lt;" is better than markup from an agent.
	n.markup = true
	var caps []string
	if err := conn.Object(dbusDest, dbusPath).Call(dbusIface+".GetCapabilities", 0).Store(&caps); err == nil {
		n.markup = slices.Contains(caps, "body-markup")
	}
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
			key, _ := s.Body[1].(string)
			n.mu.Lock()
			sh, ok := n.sessions[id]
			n.mu.Unlock()
			if !ok {
				continue
			}
			if landing(key) && n.o.Land != nil && sh.task != "" {
				n.o.Land(sh.session, sh.task, key)
			} else if verb, answer, decided := ParseAction(key); decided && n.o.Decide != nil {
				n.o.Decide(sh.session, sh.request, verb, answer)
			} else if n.o.Open != nil {
				n.o.Open(sh.session)
			}
		case dbusIface + ".NotificationClosed":
			if len(s.Body) < 1 {
				continue
			}
			id, _ := s.Body[0].(uint32)
			n.forget(id)
		}
	}
}

func (n *Notifier) forget(id uint32) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.sessions, id)
	for g, gid := range n.groups {
		if gid == id {
			delete(n.groups, g)
		}
	}
}

// Notify shows one notice, replacing the one of its group still showing; a
// click on it opens the session's console.
func (n *Notifier) Notify(nt supervisor.Notice) error {
	m := newMessage(nt)
	if (m.Task == "" && n.o.Decide == nil) || (m.Task != "" && n.o.Land == nil) {
		m.Actions = nil
	}
	n.mu.Lock()
	closed, replaces := n.closed, n.groups[m.Group]
	n.mu.Unlock()
	if closed {
		return errClosed
	}
	urgency := byte(1)
	if nt.Kind == supervisor.NoticeBlock || nt.Kind == supervisor.NoticePermission {
		urgency = 2
	}
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(urgency)}
	var id uint32
	call := n.conn.Object(dbusDest, dbusPath).Call(dbusIface+".Notify", 0,
		n.o.AppName, replaces, n.icon, m.Title, dbusBody(m, n.markup), dbusActions(m), hints, int32(-1))
	if err := call.Store(&id); err != nil {
		return fmt.Errorf("show a notification: %w", err)
	}
	n.mu.Lock()
	n.groups[m.Group] = id
	if nt.SessionID != "" {
		n.sessions[id] = shown{session: nt.SessionID, request: m.Request, task: m.Task}
	}
	n.mu.Unlock()
	return nil
}

// Withdraw closes the notice of nt's group if it still shows: what it
// announced is over.
func (n *Notifier) Withdraw(nt supervisor.Notice) error {
	g := Group(nt)
	n.mu.Lock()
	id, ok := n.groups[g]
	closed := n.closed
	n.mu.Unlock()
	if !ok || closed {
		return nil
	}
	n.forget(id)
	if err := n.conn.Object(dbusDest, dbusPath).Call(dbusIface+".CloseNotification", 0, id).Err; err != nil {
		return fmt.Errorf("withdraw a notification: %w", err)
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

// shown is what a notification on screen is about: its session, the
// request its buttons decide, or the task whose work they land.
type shown struct{ session, request, task string }
