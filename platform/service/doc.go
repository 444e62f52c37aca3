// Package service installs Build Station into the OS: the station as a
// background service of the user who installs it, the tray at login, and
// the buildstation:// URL scheme.
//
//   - macOS: LaunchAgents (~/Library/LaunchAgents) for the station and for
//     the tray (--hidden), both with the PATH of the user's login shell
//     plus Homebrew's (CapturePath); the URL scheme and LSUIElement live in
//     the app bundle's Info.plist (make package), not here.
//   - Linux: a systemd user unit (WantedBy=default.target), an XDG
//     autostart entry for the tray, and a .desktop handler for
//     x-scheme-handler/buildstation.
//   - Windows: a Task Scheduler logon task of the installing user (no admin
//     rights, no password: task.go says why), the tray from the HKCU Run
//     key, the URL scheme under HKCU\Software\Classes; an SCM service only
//     on request (--system).
//
// The tray's login item and the link handler are written only by a build
// that has a tray (Config.Tray).
//
// What to do is a Plan of Steps, generated without touching the OS (so the
// files, units and registry values are golden-tested on any OS); Apply runs
// it through a System, the one interface to the OS, or only prints it
// (--dry-run). Every step is idempotent and reports what it did; an install
// (ApplyAll) that fails part-way undoes the steps before, so it never
// leaves half an install.
package service
