// Package tray_test runs the real buildstation tray (the cgo build) under
// Xvfb on a private D-Bus session bus, with a stand-in StatusNotifierWatcher
// in the test: what a desktop's tray host sees of the app — the registered
// item, its icon, tooltip and menu — as a real station's sessions change
// state.
package tray_test
