package notify

import (
	"log/slog"
	"sync"

	"github.com/buildstation/buildstation/platform/service"
)

// darwinBackend is how a macOS notice is shown.
type darwinBackend int

const (
	backendPlain            darwinBackend = iota // beeep: no click, no withdrawal
	backendTerminalNotifier                      // terminal-notifier -open
	backendNative                                // UNUserNotificationCenter
)

func (b darwinBackend) String() string {
	switch b {
	case backendNative:
		return "UNUserNotificationCenter"
	case backendTerminalNotifier:
		return "terminal-notifier"
	}
	return "plain"
}

// pickDarwinBackend chooses how macOS notices are shown. The native
// notification center needs the app bundle's identity (a process outside
// a bundle has none, and UNUserNotificationCenter aborts it), and cgo
// (nativeBuilt); terminal-notifier, found at path tn, is only the fallback
// for a binary run outside the .app; a plain notification the last resort.
func pickDarwinBackend(nativeBuilt bool, bundleID, tn string) darwinBackend {
	switch {
	case nativeBuilt && bundleID != "":
		return backendNative
	case tn != "":
		return backendTerminalNotifier
	}
	return backendPlain
}

// clickedSession is the session a clicked native notice names: its
// userInfo carries the notice's buildstation:// link, read by the same
// parser "buildstation open" uses. A link naming no session (or one a
// session id never looks like) opens nothing.
func clickedSession(link string) (string, bool) {
	id, ok := service.ParseDeepLink(link)
	return id, ok && id != ""
}

// nativeState links the notification center's delegate, which is one per
// process, to the Notifier that started it: the Open callback a click goes
// to (the same one the other OSes call) and the log.
type nativeState struct {
	mu      sync.Mutex
	open    func(sessionID string)
	log     *slog.Logger
	started bool
}

// start records o's callback and log, and says whether the center is still
// to be set up (authorization asked once per process).
func (s *nativeState) start(o Options) (first bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open, s.log = o.Open, o.Log
	first = !s.started
	s.started = true
	return first
}

func (s *nativeState) hooks() (func(string), *slog.Logger) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log == nil {
		return s.open, slog.New(slog.DiscardHandler)
	}
	return s.open, s.log
}

// clicked is a click on a native notice (its body or its Open button)
// whose userInfo carried link. Open runs on its own goroutine: the
// delegate's thread belongs to the notification center.
func (s *nativeState) clicked(link string) {
	open, log := s.hooks()
	id, ok := clickedSession(link)
	if !ok {
		log.Warn("a clicked notification names no session; nothing to open", "link", link)
		return
	}
	if open != nil {
		go open(id)
	}
}

// authorized hears the answer to the authorization request.
func (s *nativeState) authorized(granted bool, err string) {
	_, log := s.hooks()
	switch {
	case granted:
		log.Info("macOS allows Build Station's notifications")
	case err != "":
		log.Warn("macOS did not allow Build Station's notifications: none will show; allow them in System Settings > Notifications > Build Station", "err", err)
	default:
		log.Warn("notifications for Build Station are turned off: none will show; turn them on in System Settings > Notifications > Build Station")
	}
}

// failed hears that the center refused one notice.
func (s *nativeState) failed(ident, err string) {
	_, log := s.hooks()
	log.Warn("macOS did not show a notification", "id", ident, "err", err)
}
