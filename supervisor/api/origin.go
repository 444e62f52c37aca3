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
func (s *Server) origin(ctx context.Context, r *http.Request) context.Context {
	if s.callers != nil {
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			id, known := s.callers.Caller(local.String(), r.RemoteAddr)
			switch {
			case id != "":
				return supervisor.WithOrigin(ctx, id)
			case known && r.Header.Get(apitype.OriginHeader) == "":
				return ctx // a process outside every session: a person's
			}
		}
	}
	if o := r.Header.Get(apitype.OriginHeader); o != "" {
		return supervisor.WithOrigin(ctx, textsafe.Line(o))
	}
	return supervisor.WithUnverifiedOrigin(ctx)
}
