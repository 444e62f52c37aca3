package api

import (
	"net/http"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// routes registers every route: each area's own (taskRoutes in
// handlers_tasks.go, and so on), then the two that belong to none.
func (s *Server) routes() {
	s.stationRoutes()
	s.projectRoutes()
	s.taskRoutes()
	s.sessionRoutes()
	s.askRoutes()
	s.agentRoutes()
	s.phoneRoutes()
	// The one route open to anyone: slots and a body deadline of its own
	// (limits.go), so strangers never take the capacity above.
	s.mux.Handle("POST "+apitype.ProvePath, s.bounded(s.strangers, http.HandlerFunc(s.proveStation)))
	// Anything else gets a JSON 404 rather than the mux's plain text, so
	// every answer a client sees has the same shape.
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API route "+r.Method+" "+r.URL.Path+"; update the client to match this station")
	})
}

// person registers a route for the station's token: a person's or a
// script's call, one in-flight slot each.
func (s *Server) person(pattern string, h http.HandlerFunc) {
	s.mux.Handle(pattern, s.RequireStation(s.bounded(s.inflight, h)))
}

// personOnly registers a route for the station's token that a person alone
// may use (reserved): refused from inside a session and from a caller the
// OS could not place.
func (s *Server) personOnly(pattern string, h http.HandlerFunc) {
	s.person(pattern, s.reserved(h))
}

// agent registers a route for a session token, acting on that token's
// session only.
func (s *Server) agent(pattern string, h http.HandlerFunc) {
	s.mux.Handle(pattern, s.RequireSession(s.bounded(s.agents, h)))
}

// stream registers a stream for the station's token: it lasts as long as
// its client wants, so it does not count toward the in-flight bound, which
// is for requests that finish.
func (s *Server) stream(pattern string, h http.HandlerFunc) {
	s.mux.Handle(pattern, s.RequireStation(h))
}
