//go:build linux

package notifier

import (
	"os"
	"path/filepath"
	"testing"
)

// A station shows notices only in a desktop session it can reach without
// starting a bus of its own: a headless box gets none.
func TestDesktopSession(t *testing.T) {
	runtime := t.TempDir()
	for _, tc := range []struct {
		name                   string
		display, wayland, dbus string
		busFile, want          bool
	}{
		{name: "headless", want: false},
		{name: "a bus but no display (ssh)", dbus: "unix:path=/x", want: false},
		{name: "a display but no bus", display: ":0", want: false},
		{name: "X11 desktop", display: ":0", dbus: "unix:path=/x", want: true},
		{name: "Wayland with the systemd user bus", wayland: "wayland-0", busFile: true, want: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DISPLAY", tc.display)
			t.Setenv("WAYLAND_DISPLAY", tc.wayland)
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", tc.dbus)
			dir := filepath.Join(runtime, tc.name)
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if tc.busFile {
				if err := os.WriteFile(filepath.Join(dir, "bus"), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("XDG_RUNTIME_DIR", dir)
			if got := DesktopSession(); got != tc.want {
				t.Errorf("DesktopSession() = %v, want %v", got, tc.want)
			}
		})
	}
}
