package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Agent is the station's agent verbs' area, what the agent side's
// routes serve (*station.AgentVerbs).
type Agent interface {
	// SessionByToken finds the live session a session token belongs to.
	SessionByToken(token string) (supervisor.SessionInfo, bool)
	// SessionProof is HMAC-SHA256 of msg keyed with the token of live
	// session id: how the station proves itself to that session's agent.
	SessionProof(id string, msg []byte) ([]byte, bool)
	// Agent-side reports; sessionID comes from the token, never the body.
	AgentComplete(ctx context.Context, sessionID, summary string) error
	AgentBlock(ctx context.Context, sessionID, reason string) error
	AgentProgress(ctx context.Context, sessionID, message string) error
	AgentStatus(ctx context.Context, sessionID, status string) error
	// AgentHook records one of the agent CLI's hooks: evidence of life, and
	// what the agent waits for (a person, its next turn).
	AgentHook(ctx context.Context, sessionID string, h supervisor.HookEvent) error
	// AgentReview settles a review session's task: verdict approve or
	// changes, with the reviewer's notes.
	AgentReview(ctx context.Context, sessionID, verdict, notes string) error
}

// agentRoutes are the agent side's routes: a session token each, acting
// on that token's session only.
func (s *Server) agentRoutes() {
	s.agent("POST /v1/agent/complete", verb(s, ownSession, 0, sessionEnded, s.agentComplete))
	s.agent("POST /v1/agent/block", verb(s, ownSession, 0, sessionEnded, s.agentBlock))
	s.agent("POST /v1/agent/progress", verb(s, ownSession, 0, sessionEnded, s.agentProgress))
	s.agent("POST /v1/agent/status", verb(s, ownSession, 0, sessionEnded, s.agentStatus))
	s.agent("GET /v1/agent/task", s.agentTask)
	s.agent("POST /v1/agent/hook", s.agentHook)
	s.agent("POST /v1/agent/review", verb(s, ownSession, 0, sessionEnded, s.agentReview))
}

// The agent routes take the session from the token (RequireSession put it
// in the context), never from the body: a session acts on its own task only.

// sessionEnded is what an agent reads when its session is gone.
func sessionEnded(id string) string { return "session " + id + " has ended; stop and ask the user" }

func (s *Server) agentComplete(r *http.Request, id string, req apitype.SummaryRequest) (none, error) {
	if strings.TrimSpace(req.Summary) == "" {
		return none{}, supervisor.Invalidf(`complete needs a summary of the work; send {"summary": …}`)
	}
	return done(s.areas.Agent.AgentComplete(r.Context(), id, req.Summary))
}

func (s *Server) agentBlock(r *http.Request, id string, req apitype.ReasonRequest) (none, error) {
	if strings.TrimSpace(req.Reason) == "" {
		return none{}, supervisor.Invalidf(`block needs a reason a person can act on; send {"reason": …}`)
	}
	return done(s.areas.Agent.AgentBlock(r.Context(), id, req.Reason))
}

func (s *Server) agentProgress(r *http.Request, id string, req apitype.MessageRequest) (none, error) {
	if strings.TrimSpace(req.Message) == "" {
		return none{}, supervisor.Invalidf(`progress needs a message; send {"message": …}`)
	}
	return done(s.areas.Agent.AgentProgress(r.Context(), id, req.Message))
}

// agentStatus accepts any session state name: the CLI offers working and
// reviewing, and hooks may report others (waiting, needs-permission); the
// station decides which it takes.
func (s *Server) agentStatus(r *http.Request, id string, req apitype.StatusRequest) (none, error) {
	if _, ok := supervisor.ParseSessionState(req.Status); !ok {
		return none{}, supervisor.Invalidf("unknown status %s; use working or reviewing", req.Status)
	}
	return done(s.areas.Agent.AgentStatus(r.Context(), id, req.Status))
}

// agentHook takes a hook's JSON as the agent CLI wrote it: the station reads
// four fields and ignores the rest (session_id, cwd, transcript_path, …),
// which is why this route alone decodes leniently.
func (s *Server) agentHook(w http.ResponseWriter, r *http.Request) {
	var h supervisor.HookEvent
	if !decodeLenient(w, r, &h) {
		return
	}
	if strings.TrimSpace(h.Event) == "" {
		writeError(w, http.StatusBadRequest, `a hook needs its hook_event_name; send the hook's JSON as the agent CLI gives it`)
		return
	}
	id := ownSession(r)
	if err := s.areas.Agent.AgentHook(r.Context(), id, h); err != nil {
		s.stationError(w, r, err, sessionEnded(id))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) agentReview(r *http.Request, id string, req apitype.ReviewRequest) (none, error) {
	if req.Verdict != supervisor.VerdictApprove && req.Verdict != supervisor.VerdictChanges {
		return none{}, supervisor.Invalidf("unknown verdict %s; use approve or changes", strconv.Quote(req.Verdict))
	}
	return done(s.areas.Agent.AgentReview(r.Context(), id, req.Verdict, req.Notes))
}

func (s *Server) agentTask(w http.ResponseWriter, r *http.Request) {
	sess, _ := SessionFromContext(r.Context())
	d, err := s.taskDetail(r, sess.TaskID)
	if err != nil {
		s.stationError(w, r, err, "this session's task "+sess.TaskID+" is gone; stop and ask the user")
		return
	}
	writeJSON(w, http.StatusOK, d)
}
