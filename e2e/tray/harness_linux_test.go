//go:build linux && cgo

package tray_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/buildstation/buildstation/e2e/rig"
)

// TestMain builds buildstation with cgo, as the tray ships.
func TestMain(m *testing.M) { rig.Main(m, rig.Options{CGO: true}) }

// need skips the test when a program is missing on a developer's machine
// and fails it in CI, where a skipped tray suite would look like a pass.
func need(t *testing.T, prog, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(prog); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (apt-get install %s)", prog, pkg)
		}
		t.Skipf("%s is not installed (apt-get install %s)", prog, pkg)
	}
}

// startXvfb runs a virtual X server of the test's own and returns its
// DISPLAY.
func startXvfb(t *testing.T, extra ...string) string {
	t.Helper()
	need(t, "Xvfb", "xvfb")
	return rig.Xvfb(t, extra...)
}

// privateBus starts a D-Bus session daemon of the test's own and returns
// its address.
func privateBus(t *testing.T) string { return rig.PrivateBus(t) }

// watcher stands in for the desktop's StatusNotifierWatcher (what a tray
// host such as xfce4-panel or KDE's runs): items register with it, and
// the test reads them as a host would.
type watcher struct {
	conn  *dbus.Conn
	mu    sync.Mutex
	items []item
	reg   chan struct{}
}

type item struct{ service, path string }

func newWatcher(t *testing.T, addr string) *watcher {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	w := &watcher{conn: conn, reg: make(chan struct{}, 8)}
	const iface = "org.kde.StatusNotifierWatcher"
	if err := conn.Export(w, "/StatusNotifierWatcher", iface); err != nil {
		t.Fatal(err)
	}
	if err := conn.Export(watcherProps{}, "/StatusNotifierWatcher", "org.freedesktop.DBus.Properties"); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName(iface, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v %v", iface, reply, err)
	}
	return w
}

// RegisterStatusNotifierItem is the watcher's method: the argument is the
// item's bus name or, as fyne.io/systray sends, its object path on the
// caller's connection.
func (w *watcher) RegisterStatusNotifierItem(sender dbus.Sender, service string) *dbus.Error {
	it := item{service: string(sender), path: service}
	if !strings.HasPrefix(service, "/") {
		it = item{service: service, path: "/StatusNotifierItem"}
	}
	w.mu.Lock()
	w.items = append(w.items, it)
	w.mu.Unlock()
	select {
	case w.reg <- struct{}{}:
	default:
	}
	return nil
}

func (w *watcher) RegisterStatusNotifierHost(sender dbus.Sender, service string) *dbus.Error {
	return nil
}

// watcherProps answers the watcher's properties: a host is registered, so
// items show themselves.
type watcherProps struct{}

func (watcherProps) Get(iface, name string) (dbus.Variant, *dbus.Error) {
	switch name {
	case "IsStatusNotifierHostRegistered":
		return dbus.MakeVariant(true), nil
	case "ProtocolVersion":
		return dbus.MakeVariant(int32(0)), nil
	case "RegisteredStatusNotifierItems":
		return dbus.MakeVariant([]string{}), nil
	}
	return dbus.Variant{}, dbus.MakeFailedError(errors.New("no such property " + name))
}

func (p watcherProps) GetAll(iface string) (map[string]dbus.Variant, *dbus.Error) {
	return map[string]dbus.Variant{"IsStatusNotifierHostRegistered": dbus.MakeVariant(true), "ProtocolVersion": dbus.MakeVariant(int32(0))}, nil
}

// waitItem waits for the first registered item.
func (w *watcher) waitItem(t *testing.T, d time.Duration, tray *rig.Buffer) item {
	t.Helper()
	deadline := time.After(d)
	for {
		w.mu.Lock()
		if len(w.items) > 0 {
			it := w.items[0]
			w.mu.Unlock()
			return it
		}
		w.mu.Unlock()
		select {
		case <-w.reg:
		case <-deadline:
			t.Fatalf("no StatusNotifierItem registered with the watcher within %s; tray output:\n%s", d, tray)
		}
	}
}

// view is what a tray host shows of the item.
type view struct {
	Tooltip string
	Icon    []byte // the largest pixmap's ARGB pixels
	IconW   int
	Menu    []string // the menu's labels, top level, "(off)" after disabled ones
}

func (w *watcher) read(it item) (view, error) {
	var v view
	obj := w.conn.Object(it.service, dbus.ObjectPath(it.path))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var tip struct {
		Name  string
		Icons []pixmap
		Title string
		Text  string
	}
	tv, err := obj.GetProperty("org.kde.StatusNotifierItem.ToolTip")
	if err != nil {
		return v, fmt.Errorf("read ToolTip: %w", err)
	}
	if err := tv.Store(&tip); err != nil {
		return v, fmt.Errorf("decode ToolTip %v: %w", tv, err)
	}
	v.Tooltip = tip.Title
	iv, err := obj.GetProperty("org.kde.StatusNotifierItem.IconPixmap")
	if err != nil {
		return v, fmt.Errorf("read IconPixmap: %w", err)
	}
	var pix []pixmap
	if err := iv.Store(&pix); err != nil {
		return v, fmt.Errorf("decode IconPixmap: %w", err)
	}
	for _, p := range pix {
		if int(p.W) > v.IconW {
			v.IconW, v.Icon = int(p.W), p.Pix
		}
	}
	mv, err := obj.GetProperty("org.kde.StatusNotifierItem.Menu")
	if err != nil {
		return v, fmt.Errorf("read Menu: %w", err)
	}
	menuPath, _ := mv.Value().(dbus.ObjectPath)
	var rev uint32
	var layout menuNode
	call := w.conn.Object(it.service, menuPath).CallWithContext(ctx, "com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{})
	if err := call.Store(&rev, &layout); err != nil {
		return v, fmt.Errorf("GetLayout: %w", err)
	}
	for _, c := range layout.Children {
		var child menuNode
		if err := dbus.Store([]any{c.Value()}, &child); err != nil {
			return v, fmt.Errorf("decode a menu item: %w", err)
		}
		if t, _ := child.Props["type"].Value().(string); t == "separator" {
			v.Menu = append(v.Menu, "---")
			continue
		}
		if vis, ok := child.Props["visible"].Value().(bool); ok && !vis {
			continue
		}
		label, _ := child.Props["label"].Value().(string)
		if en, ok := child.Props["enabled"].Value().(bool); ok && !en {
			label += " (off)"
		}
		v.Menu = append(v.Menu, label)
	}
	return v, nil
}

type pixmap struct {
	W, H int32
	Pix  []byte
}

type menuNode struct {
	ID       int32
	Props    map[string]dbus.Variant
	Children []dbus.Variant
}

// waitView reads the item until ok accepts what it shows.
func (w *watcher) waitView(t *testing.T, it item, d time.Duration, what string, ok func(view) bool) view {
	t.Helper()
	// A poll: the item's PropertiesChanged signals are not what a host
	// re-reads the menu on, and a poll is what this test can trust on a
	// loaded machine.
	var v view
	rig.Eventually(t, d, func() (err error) {
		if v, err = w.read(it); err != nil {
			return err
		}
		if !ok(v) {
			return fmt.Errorf("tooltip %q, menu %q, icon %dpx", v.Tooltip, v.Menu, v.IconW)
		}
		return nil
	}, "the tray to show "+what)
	return v
}

// startTray runs `buildstation --hidden` on home with the display and bus.
func startTray(t *testing.T, home, display, bus string, args ...string) *rig.Buffer {
	out, _ := startTrayCmd(t, home, display, bus, args...)
	return out
}

// startTrayCmd is startTray, with the tray's process.
func startTrayCmd(t *testing.T, home, display, bus string, args ...string) (*rig.Buffer, *exec.Cmd) {
	t.Helper()
	return startTrayEnv(t, home, display, bus, nil, args...)
}

// startTrayEnv is startTrayCmd with env's variables added to (or
// replacing) the tray's.
func startTrayEnv(t *testing.T, home, display, bus string, env []string, args ...string) (*rig.Buffer, *exec.Cmd) {
	t.Helper()
	out := &rig.Buffer{}
	cmd := exec.Command(rig.Bin(), append([]string{"--home", home}, args...)...)
	cmd.Env = append(append(rig.Env(rig.Bin(), home), "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS="+bus, "WAYLAND_DISPLAY="), env...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
	return out, cmd
}

// click sends the item's menu a click on the line labelled label, as a
// tray host does (com.canonical.dbusmenu Event "clicked").
func (w *watcher) click(t *testing.T, it item, label string) {
	t.Helper()
	obj := w.conn.Object(it.service, dbus.ObjectPath(it.path))
	mv, err := obj.GetProperty("org.kde.StatusNotifierItem.Menu")
	if err != nil {
		t.Fatalf("read Menu: %v", err)
	}
	menuPath, _ := mv.Value().(dbus.ObjectPath)
	menu := w.conn.Object(it.service, menuPath)
	var rev uint32
	var layout menuNode
	if err := menu.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &layout); err != nil {
		t.Fatalf("GetLayout: %v", err)
	}
	var labels []string
	for _, c := range layout.Children {
		var child menuNode
		if err := dbus.Store([]any{c.Value()}, &child); err != nil {
			t.Fatalf("decode a menu item: %v", err)
		}
		l, _ := child.Props["label"].Value().(string)
		labels = append(labels, l)
		if l != label {
			continue
		}
		call := menu.Call("com.canonical.dbusmenu.Event", 0, child.ID, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix()))
		if call.Err != nil {
			t.Fatalf("click %q: %v", label, call.Err)
		}
		return
	}
	t.Fatalf("the menu has no %q line: %q", label, labels)
}

// entry is a line of the item's menu as a tray host reads it, with the
// lines of the submenu it opens.
type entry struct {
	ID       int32
	Label    string
	Submenu  bool // children-display is "submenu": the host opens the children
	Children []entry
}

// menuTree reads the item's whole menu (GetLayout from the root, every
// level), as a host does before it shows the menu.
func (w *watcher) menuTree(t *testing.T, it item) []entry {
	t.Helper()
	mv, err := w.conn.Object(it.service, dbus.ObjectPath(it.path)).GetProperty("org.kde.StatusNotifierItem.Menu")
	if err != nil {
		t.Fatalf("read Menu: %v", err)
	}
	menuPath, _ := mv.Value().(dbus.ObjectPath)
	var rev uint32
	var layout menuNode
	if err := w.conn.Object(it.service, menuPath).Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &layout); err != nil {
		t.Fatalf("GetLayout: %v", err)
	}
	var walk func(kids []dbus.Variant) []entry
	walk = func(kids []dbus.Variant) []entry {
		var out []entry
		for _, c := range kids {
			var n menuNode
			if err := dbus.Store([]any{c.Value()}, &n); err != nil {
				t.Fatalf("decode a menu item: %v", err)
			}
			e := entry{ID: n.ID}
			e.Label, _ = n.Props["label"].Value().(string)
			d, _ := n.Props["children-display"].Value().(string)
			e.Submenu = d == "submenu"
			e.Children = walk(n.Children)
			out = append(out, e)
		}
		return out
	}
	return walk(layout.Children)
}

// clickID sends the item's menu a click on the line with id, as a host
// does when a person picks it (in a submenu too).
func (w *watcher) clickID(t *testing.T, it item, id int32) {
	t.Helper()
	mv, err := w.conn.Object(it.service, dbus.ObjectPath(it.path)).GetProperty("org.kde.StatusNotifierItem.Menu")
	if err != nil {
		t.Fatalf("read Menu: %v", err)
	}
	menuPath, _ := mv.Value().(dbus.ObjectPath)
	if call := w.conn.Object(it.service, menuPath).Call("com.canonical.dbusmenu.Event", 0, id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix())); call.Err != nil {
		t.Fatalf("click line %d: %v", id, call.Err)
	}
}

// windowTitled says whether the display has a window titled title
// (xwininfo, from x11-utils).
func windowTitled(t *testing.T, display, title string) bool {
	t.Helper()
	out, err := exec.Command("xwininfo", "-display", display, "-root", "-tree").Output()
	if err != nil {
		t.Fatalf("xwininfo: %v", err)
	}
	return strings.Contains(string(out), "\""+title+"\":")
}
