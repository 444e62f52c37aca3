package api

import (
	"net/http"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// routes registers every route. Station routes need the station token; agent
// routes need a session token and act on that token's session only.
func (s *Server) routes() {
	st := func(pattern string, h http.HandlerFunc) {
		s.mux.Handle(pattern, s.RequireStation(s.bounded(s.inflight, h)))
	}
	ag := func(pattern string, h http.HandlerFunc) {
		s.mux.Handle(pattern, s.RequireSession(s.bounded(s.inflight, h)))
	}
	// Streams last as long as their client wants: they do not count toward
	// the in-flight bound, which is for requests that finish.
	stream := func(pattern string, h http.HandlerFunc) { s.mux.Handle(pattern, s.RequireStation(h)) }

	st("GET /v1/status", s.getStatus)
	st("GET /v1/projects", s.getProjects)
	st("POST /v1/projects/{name}/pause", s.pauseProject)
	st("POST /v1/projects/{name}/resume", s.resumeProject)
	st("POST /v1/projects/{name}/settings", s.setProjectSettings)
	st("POST /v1/projects", s.addProject)
	st("DELETE /v1/projects/{name}", s.removeProject)
	st("GET /v1/agents", s.getAgents)

	st("POST /v1/tasks", s.addTask)
	st("GET /v1/tasks", s.listTasks)
	st("GET /v1/tasks/{id}", s.getTask)
	st("POST /v1/tasks/{id}/requeue", s.requeueTask)
	st("POST /v1/tasks/{id}/cancel", s.cancelTask)
	st("GET /v1/tasks/{id}/diff", s.taskDiff)
	st("POST /v1/tasks/{id}/accept", s.acceptTask)
	st("POST /v1/tasks/{id}/merge", s.mergeTask)

	st("GET /v1/sessions", s.listSessions)
	st("GET /v1/sessions/{id}", s.getSession)
	st("POST /v1/sessions/{id}/send", s.sendSession)
	st("POST /v1/sessions/{id}/nudge", s.nudgeSession)
	st("POST /v1/sessions/{id}/block", s.blockSession)
	st("POST /v1/sessions/{id}/allow", s.decideSession(supervisor.DecideAllow))
	st("POST /v1/sessions/{id}/deny", s.decideSession(supervisor.DecideDeny))
	st("POST /v1/sessions/{id}/answer", s.decideSession("answer"))
	stream("GET /v1/sessions/{id}/attach", s.attachSession)
	st("GET /v1/sessions/{id}/transcript", s.sessionTranscript)

	stream("GET /v1/events", s.events)

	// The one route open to anyone: slots and a body deadline of its own
	// (limits.go), so strangers never take the capacity above.
	s.mux.Handle("POST "+apitype.ProvePath, s.bounded(s.strangers, http.HandlerFunc(s.proveStation)))
	ag("POST /v1/agent/complete", s.agentComplete)
	ag("POST /v1/agent/block", s.agentBlock)
	ag("POST /v1/agent/progress", s.agentProgress)
	ag("POST /v1/agent/status", s.agentStatus)
	ag("GET /v1/agent/task", s.agentTask)
	ag("POST /v1/agent/hook", s.agentHook)
	ag("POST /v1/agent/review", s.agentReview)
	// A request waits for a person: no in-flight bound, like a stream.
	s.mux.Handle("POST /v1/agent/ask", s.RequireSession(http.HandlerFunc(s.agentAsk)))

	// Anything else gets a JSON 404 rather than the mux's plain text, so
	// every answer a client sees has the same shape.
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API route "+r.Method+" "+r.URL.Path+"; update the client to match this station")
	})
}
