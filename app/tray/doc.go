// Package tray is the tray process: the icon and its menu
// (fyne.io/systray), the station's state followed over its API
// (app.Station), the notices, and the requests it hands the dashboard
// process when a window is wanted (Dashboards). The tray process runs no
// Fyne app, whose GLFW loop wakes 60 times a second even with no window
// open: with no window open it does nothing until the station says
// something changed. The other end of the pipe is here too: RunDashboard
// is the dashboard process, the Fyne app that shows what the tray asks.
//
// Like app, it links only the vocabulary and the API client: the OS's
// pieces (the notifier, the dashboard process's start, the
// single-instance endpoint, links, the browser, the update check) are
// handed in by the wiring (internal/wiring/tray) through Config,
// DashboardConfig and Process; the OS's window and link calls are
// platform/desktop.
//
// Without cgo there is no tray: RunDashboard needs cgo builds.
package tray
