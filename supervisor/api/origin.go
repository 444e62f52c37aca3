package api

import (
	"context"
	"net"
	"net/http"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Callers tells which session, if any, the process at the far end of a
// connection runs in. The wiring hands in one built on the OS
// (platform/peer and the process table) and the station's sessions.
type Callers interface {
	// Caller returns the session the process that opened the connection
	// from remote to local belongs to ("" for none); known is false when
	// the OS cannot tell.
	Caller(local, remote string) (sessionID string, known bool)
	// Places reports whether this OS can name the process at the far end
	// of a connection at all (Linux: yes; macOS, Windows: not yet). Where
	// it can, a caller it could not name — a client that closed its
	// socket before it was looked up, another user's process — is not
	// taken for a person by the verbs reserved to one.
	Places() bool
}

// SetCallers has the server place the callers of operator actions (see
// origin). Without it every operator action is of unverified origin
// unless its client names a session itself.
func (s *Server) SetCallers(c Callers) { s.callers = c }

// origin marks an operator action (a station-token call that changes
// something) with where it came from, for the task's history: the session
// whose process tree the caller is in, even when the caller unset the
// session's variables; the session the client names itself (its
// BUILDSTATION_SESSION_ID); or, when neither the OS nor the client says,
// "unverified origin" — never "a person" on no evidence.
//
// It runs in guard, as soon as the request's headers are in and before its
// body is read or anything is done: the client's socket is open then, for
// a real client waits for the answer. A caller that closed its socket at
// once (so the OS no longer names it) is unplaced, and reserved refuses
// it the verbs a person alone may use.
func (s *Server) origin(ctx context.Context, r *http.Request) context.Context {
	unplaced := false
	if s.callers != nil {
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			id, known := s.callers.Caller(local.String(), r.RemoteAddr)
			switch {
			case id != "":
				return supervisor.WithOrigin(ctx, id)
			case known && r.Header.Get(apitype.OriginHeader) == "":
				return ctx // a process outside every session: a person's
			}
			unplaced = !known && s.callers.Places()
		} else {
			unplaced = s.callers.Places()
		}
	}
	if o := r.Header.Get(apitype.OriginHeader); o != "" {
		return supervisor.WithOrigin(ctx, textsafe.Line(o))
	}
	ctx = supervisor.WithUnverifiedOrigin(ctx)
	if unplaced {
		ctx = context.WithValue(ctx, unplacedKey{}, true)
	}
	return ctx
}

type unplacedKey struct{}

// reserved wraps a verb a person alone may use — a decision on what an
// agent asks, stopping the station, a project's settings, adding or
// removing a project, resuming a paused queue, accepting or merging a
// task's work. From inside a session (its process tree, or a client that
// says so) it is refused, and so it is from a caller the OS could have
// placed and did not: an agent that read the station's token must not
// pass for a person by hiding from the lookup.
func (s *Server) reserved(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if id, ok := supervisor.Origin(ctx); ok {
			writeError(w, http.StatusForbidden, "this is a person's to do, and it came from inside session "+id+"; do it from a terminal or the dashboard outside every session")
			return
		}
		if v, _ := ctx.Value(unplacedKey{}).(bool); v {
			writeError(w, http.StatusForbidden, "the station could not tell which program sent this (its connection was gone, or belongs to another user), so it does not take it as a person's; run it again from a terminal or the dashboard and wait for the answer")
			return
		}
		h(w, r)
	}
}
