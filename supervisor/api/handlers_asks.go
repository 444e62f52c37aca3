package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

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
	d, err := s.st.AgentAsk(r.Context(), sess.ID, req)
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
		return done(s.st.Decide(r.Context(), id, d))
	})
}
