// Package noticefollow is how a station reaches a person by itself: it follows
// the station's events, runs the configured [hooks] (a program per event,
// the event as JSON on stdin), and shows notices on the desktop while no
// tray is connected to show them, withdrawing each when what it announced is
// over. It runs on its own goroutine as a bus subscriber, so a slow hook or
// desktop never holds up a session.
package noticefollow
