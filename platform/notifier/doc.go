// Package notifier shows the station's notices as desktop notifications
// whose click opens that session's console: a D-Bus notification whose
// default action opens it on Linux, a toast with protocol activation
// (buildstation://session/<id>) on Windows, terminal-notifier with -open
// (or a plain notification) on macOS. A notice is withdrawn when what it
// announced is over (Withdraw). It implements the app package's Notifier;
// main wires it in, for the tray and for a station with no tray.
//
// Titles and bodies come from agents and shared boards: each OS's payload
// is built by a pure function in payload.go, escaped for its format and
// tested with hostile text on every OS.
package notifier
