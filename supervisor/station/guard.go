package station

import "github.com/buildstation/buildstation/supervisor"

// guardNoteName is the file the guard writes into a session's own folder
// before it ends the session.
const guardNoteName = "fenced-by-guard"

// guarded tells the fence guard (platform/guard, a process of its own
// beside a station on a shared board) which sessions to end should this
// station stop proving its leases. Without a guard (a station on its own
// board) every method does nothing.
type guarded struct {
	g     supervisor.Guard
	files supervisor.Files
}

// note is the path of a session's guard note.
func (gd guarded) note(id string) string {
	path, _ := gd.files.SessionFile(id, guardNoteName)
	return path
}

// spawning puts a session under the guard before its agent starts, by its
// marker alone: a station stopped between the agent's start and the
// session's registration must not leave the agent unguarded.
func (gd guarded) spawning(id, token string) {
	if gd.g != nil {
		gd.g.Watch(id, 0, sessionMarker(token), "", gd.note(id))
	}
}

// forget takes a session that never started from the guard.
func (gd guarded) forget(id string) {
	if gd.g != nil {
		gd.g.Unwatch(id)
	}
}

// watch puts a live session under the guard.
func (gd guarded) watch(s *session) {
	if gd.g == nil {
		return
	}
	window := ""
	if h, ok := s.proc.(supervisor.Handled); ok {
		window = h.Handle()
	}
	gd.g.Watch(s.spec.ID, s.proc.Pid(), sessionMarker(s.spec.Token), window, gd.note(s.spec.ID))
}

// unwatch takes an ended session from the guard, and reports whether the
// guard had ended it.
func (gd guarded) unwatch(s *session) (fenced bool) {
	if gd.g == nil {
		return false
	}
	gd.g.Unwatch(s.spec.ID)
	_, fenced = gd.files.SessionFile(s.spec.ID, guardNoteName)
	return fenced
}
