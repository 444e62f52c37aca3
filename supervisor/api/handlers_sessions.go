package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Sessions is the station's sessions' area, what the session verbs and
// the event stream serve (*station.Sessions).
type Sessions interface {
	Sessions() []supervisor.SessionInfo
	Session(id string) (supervisor.SessionInfo, bool)
	// Send types text into a session, then Enter as a separate write.
	Send(ctx context.Context, sessionID, text string) error
	// Attach returns the session's ring buffer (the last screens) and a
	// live feed of its output; Input types raw bytes, Resize sets the PTY
	// size. Close the Attachment when done.
	Attach(sessionID string) (*supervisor.Attachment, error)
	// Transcript is a session's raw output from byte from on (from < 0:
	// that many bytes back from the end), ended sessions too; id may be a
	// task id, which picks its latest session.
	Transcript(id string, from int64) (supervisor.Transcript, error)
	// Nudge and Block are the tray's "Nudge now" and "Block".
	Nudge(ctx context.Context, sessionID string) error
	Block(ctx context.Context, sessionID, reason string) error
	Subscribe(buffer int) *supervisor.Subscription
}

// sessionRoutes are the session verbs' routes and the event stream.
func (s *Server) sessionRoutes() {
	s.person("GET /v1/sessions", s.listSessions)
	s.person("GET /v1/sessions/{id}", s.getSession)
	session := pathValue("id")
	s.person("POST /v1/sessions/{id}/send", verb(s, session, 0, sessionNotFound,
		func(r *http.Request, id string, req apitype.TextRequest) (none, error) {
			if req.Text == "" {
				return none{}, supervisor.Invalidf(`send needs text to type; send {"text": …}`)
			}
			return done(s.areas.Sessions.Send(r.Context(), id, req.Text))
		}))
	s.person("POST /v1/sessions/{id}/nudge", verb(s, session, 0, sessionNotFound,
		func(r *http.Request, id string, _ none) (none, error) {
			return done(s.areas.Sessions.Nudge(r.Context(), id))
		}))
	s.person("POST /v1/sessions/{id}/block", verb(s, session, 0, sessionNotFound,
		func(r *http.Request, id string, req apitype.ReasonRequest) (none, error) {
			return done(s.areas.Sessions.Block(r.Context(), id, req.Reason))
		}))
	s.stream("GET /v1/sessions/{id}/attach", s.attachSession)
	s.person("GET /v1/sessions/{id}/transcript", verb(s, session, http.StatusOK,
		func(id string) string {
			return "no session or task " + id + " has a transcript; session ids look like t2.3"
		},
		s.sessionTranscript))
	s.stream("GET /v1/events", s.events)
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	list := s.areas.Sessions.Sessions()
	if list == nil {
		list = []supervisor.SessionInfo{}
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	info, ok := s.areas.Sessions.Session(id)
	if !ok {
		writeError(w, http.StatusNotFound, sessionNotFound(id))
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// sessionTranscript is GET /v1/sessions/{id}/transcript?from=N: a session's
// raw output as JSON (data in base64), ended sessions too; {id} may be a
// task id. from < 0 counts back from the end: from=-65536 is the last
// screens, what a blocked card shows.
func (s *Server) sessionTranscript(r *http.Request, id string, _ none) (supervisor.Transcript, error) {
	var from int64
	if v := r.URL.Query().Get("from"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return supervisor.Transcript{}, supervisor.Invalidf("from=%s is not a byte offset; use a whole number (negative: from the end)", v)
		}
		from = n
	}
	return s.areas.Sessions.Transcript(id, from)
}
