package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// agentStation is what the agent side's verbs serve.
type agentStation interface {
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
	// AgentAsk is an agent asking a person (a permission, a question); it
	// waits for Decide, or returns an empty decision when nobody decided.
	AgentAsk(ctx context.Context, sessionID string, req supervisor.AskRequest) (supervisor.Decision, error)
	// AgentReview settles a review session's task: verdict approve or
	// changes, with the reviewer's notes.
	AgentReview(ctx context.Context, sessionID, verdict, notes string) error
}

// agentRoutes are the agent side's routes: a session token each, acting
// on that token's session only.
func (s *Server) agentRoutes() {
	s.agent("POST /v1/agent/complete", s.agentComplete)
	s.agent("POST /v1/agent/block", s.agentBlock)
	s.agent("POST /v1/agent/progress", s.agentProgress)
	s.agent("POST /v1/agent/status", s.agentStatus)
	s.agent("GET /v1/agent/task", s.agentTask)
	s.agent("POST /v1/agent/hook", s.agentHook)
	s.agent("POST /v1/agent/review", s.agentReview)
	// A request waits for a person: slots of its own (held while it
	// waits), two per session, its body read within the deadline first.
	s.mux.Handle("POST /v1/agent/ask", s.RequireSession(s.bounded(s.asks, http.HandlerFunc(s.agentAsk))))
}

// The agent routes take the session from the token (RequireSession put it
// in the context), never from the body: a session acts on its own task only.

func (s *Server) agentComplete(w http.ResponseWriter, r *http.Request) {
	var req apitype.SummaryRequest
	if !decode(w, r, &req) {
		return
	}
	if strings.TrimSpace(req.Summary) == "" {
		writeError(w, http.StatusBadRequest, `complete needs a summary of the work; send {"summary": …}`)
		return
	}
	s.agentCall(w, r, func(id string) error { return s.st.AgentComplete(r.Context(), id, req.Summary) })
}

func (s *Server) agentBlock(w http.ResponseWriter, r *http.Request) {
	var req apitype.ReasonRequest
	if !decode(w, r, &req) {
		return
	}
	if strings.TrimSpace(req.Reason) == "" {
		writeError(w, http.StatusBadRequest, `block needs a reason a person can act on; send {"reason": …}`)
		return
	}
	s.agentCall(w, r, func(id string) error { return s.st.AgentBlock(r.Context(), id, req.Reason) })
}

func (s *Server) agentProgress(w http.ResponseWriter, r *http.Request) {
	var req apitype.MessageRequest
	if !decode(w, r, &req) {
		return
	}
	if strings.TrimSpace(req.Message) == "" {
		writeError(w, http.StatusBadRequest, `progress needs a message; send {"message": …}`)
		return
	}
	s.agentCall(w, r, func(id string) error { return s.st.AgentProgress(r.Context(), id, req.Message) })
}

// agentStatus accepts any session state name: the CLI offers working and
// reviewing, and hooks may report others (waiting, needs-permission); the
// station decides which it takes.
func (s *Server) agentStatus(w http.ResponseWriter, r *http.Request) {
	var req apitype.StatusRequest
	if !decode(w, r, &req) {
		return
	}
	if _, ok := supervisor.ParseSessionState(req.Status); !ok {
		writeError(w, http.StatusBadRequest, "unknown status "+req.Status+"; use working or reviewing")
		return
	}
	s.agentCall(w, r, func(id string) error { return s.st.AgentStatus(r.Context(), id, req.Status) })
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
	s.agentCall(w, r, func(id string) error { return s.st.AgentHook(r.Context(), id, h) })
}

func (s *Server) agentReview(w http.ResponseWriter, r *http.Request) {
	var req apitype.ReviewRequest
	if !decode(w, r, &req) {
		return
	}
	if req.Verdict != supervisor.VerdictApprove && req.Verdict != supervisor.VerdictChanges {
		writeError(w, http.StatusBadRequest, "unknown verdict "+strconv.Quote(req.Verdict)+"; use approve or changes")
		return
	}
	s.agentCall(w, r, func(id string) error { return s.st.AgentReview(r.Context(), id, req.Verdict, req.Notes) })
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

func (s *Server) agentCall(w http.ResponseWriter, r *http.Request, call func(sessionID string) error) {
	sess, _ := SessionFromContext(r.Context())
	if err := call(sess.ID); err != nil {
		s.stationError(w, r, err, "session "+sess.ID+" has ended; stop and ask the user")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
