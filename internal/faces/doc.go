// Package faces knows the program's two executables and hands a command
// line from one to the other. A packaged install ships both side by side:
//
//   - buildstation (cmd/buildstation), the command line: cobra, the
//     station's client and the few OS edges the verbs use themselves. It
//     links no UI, no SQLite, no MCP SDK and no cgo, so a verb starts in a
//     few milliseconds (make bench: "CLI start").
//   - buildstation-app (the module's main package), everything: the
//     station (daemon), the tray and its dashboard (Fyne, cgo), the demo,
//     the service installer, the board verbs. It runs every verb itself
//     too, so `go install` of the module alone is a whole program.
//
// On Windows the MSI ships the app twice: buildstation-app.exe (console
// subsystem, what the front hands over to) and buildstationw.exe (GUI
// subsystem: what the logon task, the Run key and the buildstation://
// link handler start, so no console window opens), beside the front
// buildstation.exe.
//
// The front hands the verbs it does not link to the app beside it (on Unix
// by exec, keeping its process id; on Windows as a child it waits for), and
// the app (either face) names the front as the program agents and tmux
// run, when it stands beside it.
package faces
