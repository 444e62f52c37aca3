// Package service installs Build Station into the OS: the station as a
// background service of the user who installs it, the tray at login, and
// the buildstation:// URL scheme.
//
//   - macOS: LaunchAgents (~/Library/LaunchAgents) for the station and for
//     the tray (--hidden); the URL scheme lives in the app bundle's
//     Info.plist (make package), not here.
//   - Linux: a systemd user unit (WantedBy=default.target), an XDG
//     autostart entry for the tray, and a .desktop handler for
//     x-scheme-handler/buildstation.
//   - Windows: a service (Service Control Manager, through
//     github.com/kardianos/service) that runs as the installing user, since
//     agents need that user's credentials and tools; the tray from the HKCU
//     Run key; the URL scheme under HKCU\Software\Classes.
//
// What to do is a Plan of Steps, generated without touching the OS (so the
// files, units and registry values are golden-tested on any OS); Apply runs
// it through a System, the one interface to the OS, or only prints it
// (--dry-run). Every step is idempotent and reports what it did.
package service
