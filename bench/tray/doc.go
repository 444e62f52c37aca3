//go:build linux && cgo

// Command tray measures the tray app (package app, with Fyne's real GLFW
// driver under Xvfb) while a real station's session prints 1 MB/s of mixed
// ANSI: frames a console draws per second, the latency of a click's effect
// on the UI thread, the process's RSS growth, and how soon the console shows
// the latest screen once output stops — with the console open, and closed
// as the baseline, in the same run. bench/bench.sh runs it after the
// station's figures; `go run ./bench/tray -bin bin/buildstation` alone.
package main
