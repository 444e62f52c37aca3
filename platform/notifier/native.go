package notifier

import (
	"log/slog"
	"sync"
	"time"

	"github.com/buildstation/buildstation/internal/deeplink"
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
	return "osascript"
}

// authAnswer is macOS's answer to the notification center's
// authorization request.
type authAnswer int

const (
	authUnasked authAnswer = iota // not asked: no bundle, or no cgo
	authGranted
	authDenied
	authPending // asked; the person has not answered the prompt yet
)

// darwinFacts are what the macOS notifier is chosen by.
type darwinFacts struct {
	NativeBuilt      bool   // cgo: the notification center can be reached
	BundleID         string // "" outside Build Station.app
	Auth             authAnswer
	AuthErr          string // macOS's reason for a refusal
	TerminalNotifier string // its path, "" when not installed
}

// chooseDarwin picks how macOS notices are shown, and says why in one
// sentence: the notification center when this is the app bundle and macOS
// allows it (or is still asking); else terminal-notifier when installed
// (a click opens the buildstation:// link); else osascript's display
// notification, which a click cannot open. macOS refuses the notification
// center to an ad-hoc-signed bundle: the answer, not the bundle id,
// decides.
func chooseDarwin(f darwinFacts) (darwinBackend, string) {
	var why string
	switch {
	case !f.NativeBuilt:
		why = "this build has no cgo, so it cannot reach the notification center"
	case f.BundleID == "":
		why = "this program does not run from Build Station.app, and the notification center serves only an app bundle"
	case f.Auth == authGranted:
		return backendNative, "notices go to the notification center (UNUserNotificationCenter): macOS allows them"
	case f.Auth == authPending:
		return backendNative, "notices go to the notification center (UNUserNotificationCenter): macOS is asking you whether to allow them"
	case f.AuthErr != "":
		why = "macOS refused the notification center (" + f.AuthErr + "; an ad-hoc-signed app is always refused)"
	default:
		why = "notifications for Build Station are turned off in System Settings > Notifications"
	}
	if f.TerminalNotifier != "" {
		return backendTerminalNotifier, why + "; notices go through terminal-notifier (" + f.TerminalNotifier + "), and a click opens the session"
	}
	return backendPlain, why + "; notices go through osascript (display notification), and a click opens nothing: brew install terminal-notifier for notices that open their session"
}

// clickedSession is the session a clicked native notice names: its
// userInfo carries the notice's buildstation:// link, read by the same
// parser "buildstation open" uses. A link naming no session (or one a
// session id never looks like) opens nothing.
func clickedSession(link string) (string, bool) {
	id, ok := deeplink.ParseDeepLink(link)
	return id, ok && id != ""
}

// nativeState links the notification center's delegate, which is one per
// process, to the Notifier that started it: the Open callback a click goes
// to (the same one the other OSes call) and the log.
type nativeState struct {
	mu     sync.Mutex
	open   func(sessionID string)
	decide func(sessionID, request, verb, answer string)
	land   func(sessionID, taskID, verb string)
	// finished is, per session, the task its last finished notice with
	// work to land named: what View diff and Merge act on.
	finished map[string]string
	// asked is, per session, the request its last notice showed: macOS's
	// buttons are fixed per category, so the request a press decides is
	// found here (the notice shown last for a session replaces the one
	// before it).
	asked   map[string]string
	log     *slog.Logger
	started bool
	// answer is closed once macOS answered the authorization request;
	// granted and refusal are its answer.
	answer   chan struct{}
	answered bool
	granted  bool
	refusal  string
}

// wait is macOS's answer to the authorization request, or authPending
// when none came within d (the person is looking at the prompt).
func (s *nativeState) wait(d time.Duration) (authAnswer, string) {
	s.mu.Lock()
	if s.answer == nil {
		s.answer = make(chan struct{})
	}
	ch := s.answer
	s.mu.Unlock()
	select {
	case <-ch:
	case <-time.After(d):
		return authPending, ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.granted {
		return authGranted, ""
	}
	return authDenied, s.refusal
}

// start records o's callback and log, and says whether the center is still
// to be set up (authorization asked once per process).
func (s *nativeState) start(o Options) (first bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open, s.decide, s.land, s.log = o.Open, o.Decide, o.Land, o.Log
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

// The notification center's categories: a notice's buttons are fixed per
// category, registered once. A permission request gets Allow once and
// Deny; a finished notice with work to land, View diff and Merge; every
// other notice that names a session gets Open. A question's options
// differ per notice, so on macOS it gets Open (the card answers).
const (
	categoryOpen     = "dev.buildstation.notice"
	categoryAsk      = "dev.buildstation.ask"
	categoryFinished = "dev.buildstation.finished"
)

// nativeCategory is the category m is posted under: its buttons.
func nativeCategory(m message) string {
	if m.URL == "" {
		return ""
	}
	if len(m.Actions) == 2 && m.Actions[0].ID == "allow" && m.Actions[1].ID == "deny" {
		return categoryAsk
	}
	if m.Task != "" && len(m.Actions) == 2 && m.Actions[0].ID == ActionDiff && m.Actions[1].ID == ActionMerge {
		return categoryFinished
	}
	return categoryOpen
}

// acted is a press of a native notice's Allow once, Deny, View diff or
// Merge (action, the UNNotificationAction's identifier) on a notice whose
// userInfo carried link: the same Decide or Land the other OSes' buttons
// call, on its own goroutine. Anything but a decision for a session, or
// a landing of the work its finished notice named, does nothing.
func (s *nativeState) acted(link, action string) {
	_, log := s.hooks()
	s.mu.Lock()
	decide, land := s.decide, s.land
	s.mu.Unlock()
	id, ok := clickedSession(link)
	if landing(action) {
		// View diff or Merge: on the task the session's last finished
		// notice named; none (a press on an older notice) lands nothing.
		s.mu.Lock()
		task := s.finished[id]
		s.mu.Unlock()
		if !ok || task == "" {
			log.Warn("a notification's button names no finished work; nothing landed", "link", link, "action", action)
			return
		}
		if land != nil {
			go land(id, task, action)
		}
		return
	}
	verb, answer, isDecision := ParseAction(action)
	if !ok || !isDecision {
		log.Warn("a notification's button names no decision for a session; nothing decided", "link", link, "action", action)
		return
	}
	s.mu.Lock()
	req := s.asked[id]
	s.mu.Unlock()
	if decide != nil {
		go decide(id, req, verb, answer)
	}
}

// authorized hears the answer to the authorization request.
func (s *nativeState) authorized(granted bool, err string) {
	s.mu.Lock()
	if s.answer == nil {
		s.answer = make(chan struct{})
	}
	if !s.answered {
		s.answered, s.granted, s.refusal = true, granted, err
		close(s.answer)
	}
	s.mu.Unlock()
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

// showing records the request m's buttons decide for its session.
func (s *nativeState) showing(sessionID string, m message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.asked == nil {
		s.asked, s.finished = map[string]string{}, map[string]string{}
	}
	s.asked[sessionID] = m.Request
	if nativeCategory(m) == categoryFinished {
		s.finished[sessionID] = m.Task
	} else if m.Task == "" {
		delete(s.finished, sessionID)
	}
}
