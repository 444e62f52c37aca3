package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Asks is the station's asks' area (*station.Asks): a session asking a
// person, and the person's decision.
type Asks interface {
	// AgentAsk is an agent asking a person (a permission, a question); it
	// waits for Decide, or returns an empty decision when nobody decided.
	AgentAsk(ctx context.Context, sessionID string, req supervisor.AskRequest) (supervisor.Decision, error)
	// Decide is a person's answer to what a session asks.
	Decide(ctx context.Context, sessionID string, d supervisor.Decision) error
}

// askRoutes are a session's request for a person and the person's
// answers to it.
func (s *Server) askRoutes() {
	// A request waits for a person: slots of its own (held while it
	// waits), two per session, its body read within the deadline first.
	s.mux.Handle("POST /v1/agent/ask", s.RequireSession(s.bounded(s.asks, http.HandlerFunc(s.agentAsk))))
	s.personOnly("POST /v1/sessions/{id}/allow", s.decideSession(supervisor.DecideAllow))
	s.personOnly("POST /v1/sessions/{id}/deny", s.decideSession(supervisor.DecideDeny))
	s.personOnly("POST /v1/sessions/{id}/answer", s.decideSession("answer"))
}

// agentAsk is an agent's PermissionRequest hook asking a person: it answers
// when a person decides, or with an empty decision when nobody did in time.
// Its body is in (bounded read it within the deadline, capped); the wait
// lasts as long as the station lets the request wait, so the answer
// leaves the server's write deadline, holding one of the asks' slots.
func (s *Server) agentAsk(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	_ = rc.SetReadDeadline(time.Time{})
	var req supervisor.AskRequest
	if !decode(w, r, &req) {
		return
	}
	sess, _ := SessionFromContext(r.Context())
	d, err := s.areas.Asks.AgentAsk(r.Context(), sess.ID, req)
	if err != nil {
		s.stationError(w, r, err, "session "+sess.ID+" has ended; stop and ask the user")
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// decideSession is a person's Allow, Deny or answer to what a session asks.
func (s *Server) decideSession(behavior string) http.HandlerFunc {
	return verb(s, pathValue("id"), 0, sessionNotFound, func(r *http.Request, id string, req apitype.DecisionRequest) (none, error) {
		d := supervisor.Decision{Behavior: behavior, Note: req.Note, Answer: req.Answer, Request: req.Request}
		if behavior == "answer" {
			if strings.TrimSpace(req.Answer) == "" {
				return none{}, supervisor.Invalidf(`answer needs the answer's text; send {"answer": …}`)
			}
			d.Behavior = supervisor.DecideAllow
		}
		return done(s.areas.Asks.Decide(r.Context(), id, d))
	})
}
