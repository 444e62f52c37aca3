// Package tray is the tray role's wiring: `buildstation [--hidden]`,
// `buildstation open`, `buildstation demo` with its tray, and
// `buildstation dashboard`. It reads the role's arguments, constructs
// what the two processes take and starts them; what they do is app/tray.
//
// Two processes. The tray process is app/tray's Serve (fyne.io/systray
// alone: the icon, its menu, the notices); this package hands it the OS's
// pieces (the notifier, the dashboard process's start, the single-instance
// endpoint, platform/desktop's links and foreground, the browser, the
// update check) and starts the station when none answers. The dashboard
// and the consoles are app/tray's RunDashboard, a Fyne app in a second
// process, this same program as `buildstation dashboard`, which the tray
// starts when a window is wanted (a menu click, a notice's click,
// `buildstation open`, a link) and hands what to show on its stdin
// (app/tray/dashproc.go); it ends when its last window closes.
//
// Without cgo there is no tray (nocgo.go says what works).
package tray

import (
	"log/slog"

	"github.com/buildstation/buildstation/internal/wiring/daemon"
	"github.com/buildstation/buildstation/platform/service"
)

// Edges are what main hands the tray from its own wiring.
type Edges struct {
	// ServiceConfig is what the installers need for home: the tray asks
	// an installed autostart to start the station before starting one.
	ServiceConfig func(home string) (service.Config, error)
	// StationOptions are a station's OS edges, for the demo's station,
	// which runs in the tray process.
	StationOptions func(home string, log *slog.Logger) daemon.Options
}
