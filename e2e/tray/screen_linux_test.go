//go:build linux && cgo

package tray_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/buildstation/buildstation/e2e/rig"
)

// desktop is a person's desktop under Xvfb (1280×800): its own D-Bus
// session bus, xfce4-panel as the tray host (its status tray hosts
// StatusNotifierItems), dunst as the notification daemon, with the
// configuration scripts/screenshots.sh uses (a left click on a notice runs
// its default action). The test reads the tray's item and clicks its menu
// lines over D-Bus as the panel does, watches every Notify call on the bus
// (a monitor), and drives windows with xdotool.
type desktop struct {
	t       *testing.T
	display string
	bus     string
	env     []string // DISPLAY, the bus, the desktop's config home
	conn    *dbus.Conn
	fb      string // the screen's pixels, an XWD file Xvfb keeps mapped (-fbdir)
	shots   string // where step screenshots go
	step    int

	mu      sync.Mutex
	notices []notice
	noticed chan struct{}
}

// notice is one Notify call a program made on the desktop's bus.
type notice struct {
	At      time.Time
	Summary string
	Body    string
	Actions []string
}

func newDesktop(t *testing.T) *desktop {
	t.Helper()
	for _, p := range [][2]string{{"xfce4-panel", "xfce4-panel"}, {"dunst", "dunst"}, {"dunstctl", "dunst"},
		{"xdotool", "xdotool"}, {"xwininfo", "x11-utils"}, {"import", "imagemagick"}} {
		need(t, p[0], p[1])
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cfg := t.TempDir()
	copyFile(t, filepath.Join(root, "scripts/screenshots/xfce4-panel.xml"), filepath.Join(cfg, "xfce4/xfconf/xfce-perchannel-xml/xfce4-panel.xml"))
	copyFile(t, filepath.Join(root, "scripts/screenshots/dunstrc"), filepath.Join(cfg, "dunst/dunstrc"))
	d := &desktop{t: t, noticed: make(chan struct{}, 64)}
	fbdir := t.TempDir()
	d.display = startXvfb(t, "-fbdir", fbdir)
	d.fb = filepath.Join(fbdir, "Xvfb_screen0")
	// The panel's settings come from xfconfd, which the bus starts on
	// demand: the bus carries the config home to it.
	d.env = []string{"DISPLAY=" + d.display, "XDG_CONFIG_HOME=" + cfg, "WAYLAND_DISPLAY="}
	d.bus = startBus(t, d.env)
	d.env = append(d.env, "DBUS_SESSION_BUS_ADDRESS="+d.bus)
	d.shots = os.Getenv("SCREENSHOTS")
	if d.shots == "" {
		d.shots = t.TempDir()
	}
	if d.conn, err = dbus.Connect(d.bus); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.conn.Close() })
	d.monitor()
	d.background("dunst")
	rig.Eventually(t, 30*time.Second, func() error { _, err := d.run("dunstctl", "count", "displayed"); return err }, "dunst to answer")
	d.background("xfce4-panel")
	rig.Eventually(t, 60*time.Second, func() bool {
		var names []string
		_ = d.conn.BusObject().Call("org.freedesktop.DBus.ListNames", 0).Store(&names)
		for _, n := range names {
			if n == "org.kde.StatusNotifierWatcher" {
				return true
			}
		}
		return false
	}, "xfce4-panel's status tray to own org.kde.StatusNotifierWatcher")
	return d
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// startBus is a D-Bus session daemon with env added to its environment
// (what the services it starts inherit).
func startBus(t *testing.T, env []string) string {
	t.Helper()
	need(t, "dbus-daemon", "dbus-daemon")
	return rig.Bus(t, env)
}

// background runs a program of the desktop until the test ends.
func (d *desktop) background(prog string, args ...string) {
	d.t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Env = append(os.Environ(), d.env...)
	if err := cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	d.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
}

// run runs a program on the desktop and answers what it printed.
func (d *desktop) run(prog string, args ...string) (string, error) {
	cmd := exec.Command(prog, args...)
	cmd.Env = append(os.Environ(), d.env...)
	b, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		err = fmt.Errorf("%s %s: %v: %s", prog, strings.Join(args, " "), err, ee.Stderr)
	}
	return strings.TrimSpace(string(b)), err
}

func (d *desktop) xdo(args ...string) string {
	d.t.Helper()
	out, err := d.run("xdotool", args...)
	if err != nil {
		d.t.Fatal(err)
	}
	return out
}

// monitor records every Notify call on the bus, with the time it was
// made: what a notification daemon was asked to show, and when.
func (d *desktop) monitor() {
	d.t.Helper()
	conn, err := dbus.Connect(d.bus)
	if err != nil {
		d.t.Fatal(err)
	}
	d.t.Cleanup(func() { conn.Close() })
	rule := "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"
	if call := conn.BusObject().Call("org.freedesktop.DBus.Monitoring.BecomeMonitor", 0, []string{rule}, uint32(0)); call.Err != nil {
		d.t.Fatalf("become a monitor of the bus: %v", call.Err)
	}
	ch := make(chan *dbus.Message, 64)
	conn.Eavesdrop(ch)
	go func() {
		for m := range ch {
			if m.Type != dbus.TypeMethodCall || len(m.Body) < 6 {
				continue
			}
			n := notice{At: time.Now()}
			n.Summary, _ = m.Body[3].(string)
			n.Body, _ = m.Body[4].(string)
			n.Actions, _ = m.Body[5].([]string)
			d.mu.Lock()
			d.notices = append(d.notices, n)
			d.mu.Unlock()
			select {
			case d.noticed <- struct{}{}:
			default:
			}
		}
	}()
}

// noticesNow is every notice asked for so far.
func (d *desktop) noticesNow() []notice {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]notice(nil), d.notices...)
}

// waitNotice waits for a notice, after the first skip ones, whose summary
// holds want.
func (d *desktop) waitNotice(skip int, want string, within time.Duration) notice {
	d.t.Helper()
	var got notice
	rig.Eventually(d.t, within, func() error {
		ns := d.noticesNow()
		for _, n := range ns[min(skip, len(ns)):] {
			if strings.Contains(n.Summary, want) {
				got = n
				return nil
			}
		}
		var all []string
		for _, n := range ns {
			all = append(all, n.Summary)
		}
		return fmt.Errorf("notices so far: %q", all)
	}, fmt.Sprintf("a notice saying %q", want))
	return got
}

// trayItem is the StatusNotifierItem the panel hosts: the first one its
// watcher lists ("<bus name>/<path>", or a bus name alone).
func (d *desktop) trayItem(within time.Duration) (*watcher, item) {
	d.t.Helper()
	var it item
	rig.Eventually(d.t, within, func() error {
		v, err := d.conn.Object("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher").GetProperty("org.kde.StatusNotifierWatcher.RegisteredStatusNotifierItems")
		if err != nil {
			return err
		}
		items, _ := v.Value().([]string)
		if len(items) == 0 {
			return fmt.Errorf("no item registered")
		}
		it = item{service: items[0], path: "/StatusNotifierItem"}
		if i := strings.Index(items[0], "/"); i > 0 {
			it = item{service: items[0][:i], path: items[0][i:]}
		}
		return nil
	}, "the tray's item on the panel")
	return &watcher{conn: d.conn}, it
}

// window is the X id of the first visible window whose name matches the
// regular expression name.
func (d *desktop) window(name string, within time.Duration) string {
	d.t.Helper()
	var id string
	rig.Eventually(d.t, within, func() bool {
		out, _ := d.run("xdotool", "search", "--onlyvisible", "--name", name)
		if f := strings.Fields(out); len(f) > 0 {
			id = f[0]
		}
		return id != ""
	}, fmt.Sprintf("a window named %q", name), rig.Later(func() string { out, _ := d.run("xwininfo", "-root", "-tree"); return out }))
	return id
}

// geometry is a window's place and size on the screen.
func (d *desktop) geometry(win string) (x, y, w, h int) {
	d.t.Helper()
	v := map[string]int{}
	for _, l := range strings.Split(d.xdo("getwindowgeometry", "--shell", win), "\n") {
		if k, s, ok := strings.Cut(l, "="); ok {
			v[k], _ = strconv.Atoi(s)
		}
	}
	return v["X"], v["Y"], v["WIDTH"], v["HEIGHT"]
}

// screen is the whole screen as it is now: Xvfb's framebuffer, read
// from the XWD file it keeps mapped (a read takes milliseconds, where
// ImageMagick's import takes a second on a loaded machine).
func (d *desktop) screen() *image.RGBA {
	d.t.Helper()
	b, err := os.ReadFile(d.fb)
	if err != nil {
		d.t.Fatalf("read the screen: %v", err)
	}
	be := func(i int) int { return int(binary.BigEndian.Uint32(b[4*i:])) }
	// XWDFileHeader: header_size, …, pixmap_width (4), pixmap_height (5),
	// byte_order (7), bits_per_pixel (11), bytes_per_line (12), ncolors
	// (19); then the colormap, 12 bytes a colour, then the pixels.
	if len(b) < 100 || be(11) != 32 || be(7) != 0 {
		d.t.Fatalf("the screen's XWD file is not 32 bits a pixel, LSB first")
	}
	w, h, stride := be(4), be(5), be(12)
	px := b[be(0)+12*be(19):]
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		row := px[y*stride:]
		for x := range w {
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = row[4*x+2], row[4*x+1], row[4*x], 0xff
		}
	}
	return img
}

// shoot keeps the screen as the next step's PNG, named
// evening-NN-name.png, the panel and the notices raised above the
// windows as a window manager keeps them (there is none here).
func (d *desktop) shoot(name string) {
	d.t.Helper()
	d.raiseChrome()
	d.step++
	file := filepath.Join(d.shots, fmt.Sprintf("evening-%02d-%s.png", d.step, name))
	f, err := os.Create(file)
	if err == nil {
		err = png.Encode(f, d.screen())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		d.t.Errorf("screenshot %s: %v", file, err)
		return
	}
	d.t.Logf("step %d: %s", d.step, file)
}

// raiseChrome puts the panel and dunst's notices on top: with no window
// manager, a window that asks to come to the front covers them.
func (d *desktop) raiseChrome() {
	for _, class := range []string{"xfce4-panel", "Dunst"} {
		out, _ := d.run("xdotool", "search", "--onlyvisible", "--class", class)
		for _, w := range strings.Fields(out) {
			_, _ = d.run("xdotool", "windowraise", w)
		}
	}
	time.Sleep(100 * time.Millisecond) // redrawn where they were covered
}

// openMenu clicks the tray icon on the panel, as a person does, so the
// panel shows the item's menu (for a screenshot); closeMenu closes it.
func (d *desktop) openMenu() {
	d.t.Helper()
	panel := strings.Fields(d.xdo("search", "--onlyvisible", "--class", "xfce4-panel"))[0]
	x, y, _, h := d.geometry(panel)
	// The panel holds the status tray alone: its icon is the first
	// square of the panel's height.
	d.xdo("mousemove", strconv.Itoa(x+h/2), strconv.Itoa(y+h/2), "click", "1")
}

func (d *desktop) closeMenu() { d.xdo("key", "Escape") }

// primary is Fyne's primary colour (the dark theme's), a high-importance
// button's background.
var primary = [3]uint32{41, 111, 246}

// buttons are the high-importance buttons in the part of img within r: the
// regions of the primary colour at least a button's size (the Board tab's
// underline and icons are smaller), top to bottom.
func buttons(img *image.RGBA, r image.Rectangle) []image.Rectangle {
	r = r.Intersect(img.Bounds())
	near := func(a uint8, b uint32) bool { return uint32(a)+12 >= b && uint32(a) <= b+12 }
	is := func(p image.Point) bool {
		o := img.PixOffset(p.X, p.Y)
		return near(img.Pix[o], primary[0]) && near(img.Pix[o+1], primary[1]) && near(img.Pix[o+2], primary[2])
	}
	seen := make([]bool, r.Dx()*r.Dy())
	mark := func(p image.Point) bool {
		i := (p.Y-r.Min.Y)*r.Dx() + p.X - r.Min.X
		if seen[i] {
			return false
		}
		seen[i] = true
		return true
	}
	var out []image.Rectangle
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := image.Pt(x, y)
			if !is(p) || !mark(p) {
				continue
			}
			box := image.Rectangle{Min: p, Max: p.Add(image.Pt(1, 1))}
			stack := []image.Point{p}
			for len(stack) > 0 {
				q := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				box = box.Union(image.Rectangle{Min: q, Max: q.Add(image.Pt(1, 1))})
				for _, n := range []image.Point{{q.X + 1, q.Y}, {q.X - 1, q.Y}, {q.X, q.Y + 1}, {q.X, q.Y - 1}} {
					if n.In(r) && is(n) && mark(n) {
						stack = append(stack, n)
					}
				}
			}
			if box.Dx() >= 50 && box.Dy() >= 24 {
				out = append(out, box)
			}
		}
	}
	return out
}

// stableButton waits for a high-importance button within r (pick chooses
// among them) that stays where it is for 300 ms: a card drawn anew moves
// its buttons, and a click must land where the button is.
func (d *desktop) stableButton(r image.Rectangle, within time.Duration, what string, pick func([]image.Rectangle) image.Rectangle) image.Rectangle {
	d.t.Helper()
	var last image.Rectangle
	var since time.Time
	rig.Eventually(d.t, within, func() error {
		bs := buttons(d.screen(), r)
		if len(bs) == 0 {
			last = image.Rectangle{}
			return fmt.Errorf("no button of the primary colour")
		}
		if b := pick(bs); b != last {
			last, since = b, time.Now()
		}
		if time.Since(since) < 300*time.Millisecond {
			time.Sleep(100 * time.Millisecond)
			return fmt.Errorf("%v moved a moment ago", last)
		}
		return nil
	}, what)
	return last
}

func first(bs []image.Rectangle) image.Rectangle { return bs[0] }
func last(bs []image.Rectangle) image.Rectangle  { return bs[len(bs)-1] }

// click moves the pointer to the middle of box and clicks it.
func (d *desktop) click(box image.Rectangle) {
	d.t.Helper()
	c := box.Min.Add(box.Max).Div(2)
	d.xdo("mousemove", strconv.Itoa(c.X), strconv.Itoa(c.Y))
	time.Sleep(200 * time.Millisecond) // the pointer's hover drawn, as a hand's would be
	d.xdo("click", "1")
}

// windowRect is a window's rectangle on the screen.
func (d *desktop) windowRect(win string) image.Rectangle {
	x, y, w, h := d.geometry(win)
	return image.Rect(x, y, x+w, y+h)
}

// cli runs the buildstation CLI with env and decodes its JSON into v
// (nil: no decoding); it answers stdout.
func cli(t *testing.T, env []string, v any, args ...string) string {
	t.Helper()
	out, errOut, code, err := rig.CLI(rig.Bin(), env, args...)
	if err != nil || code != 0 {
		t.Fatalf("buildstation %s: exit %d %v: %s", strings.Join(args, " "), code, err, errOut)
	}
	if v != nil {
		if err := json.Unmarshal([]byte(out), v); err != nil {
			t.Fatalf("buildstation %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return out
}
