package api

import (
	"context"
	"net/http"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/agent"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Control is the station as a whole (*station.Control): its status, the
// agent CLIs it can run, a stop.
type Control interface {
	Status(ctx context.Context) (supervisor.Status, error)
	// AgentCLIs are the agent CLIs found on the station's machine, to
	// choose from when adding a project.
	AgentCLIs(ctx context.Context) []supervisor.AgentCLI
	// RequestStop asks the station to drain, then stop, as a first
	// Ctrl-C does; it says what happens now.
	RequestStop(ctx context.Context) (string, error)
}

// stationRoutes are the routes of the station as a whole.
func (s *Server) stationRoutes() {
	s.person("GET /v1/status", verb(s, nothing, http.StatusOK, always("status not found; restart the station"),
		func(r *http.Request, _ string, _ none) (supervisor.Status, error) {
			return s.areas.Control.Status(r.Context())
		}))
	s.person("GET /v1/agents", s.getAgents)
	// stop asks the station to drain and stop: `service stop` of a logon
	// task, which can only terminate the process, asks this first.
	s.personOnly("POST /v1/station/stop", verb(s, nothing, http.StatusAccepted, always("the station could not be asked to stop; stop its process"),
		func(r *http.Request, _ string, _ none) (apitype.StopAnswer, error) {
			msg, err := s.areas.Control.RequestStop(r.Context())
			return apitype.StopAnswer{Message: msg}, err
		}))
}

// getAgents lists the agent CLIs found on the station's machine; with
// ?known=1, every built-in agent this station can run, by name alone
// (nothing is looked for), which the dashboard shows without linking the
// agent profiles.
func (s *Server) getAgents(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("known") != "" {
		list := []supervisor.AgentCLI{}
		for _, name := range agent.ProfileNames(true) {
			list = append(list, supervisor.AgentCLI{Name: name})
		}
		writeJSON(w, http.StatusOK, list)
		return
	}
	list := s.areas.Control.AgentCLIs(r.Context())
	if list == nil {
		list = []supervisor.AgentCLI{}
	}
	writeJSON(w, http.StatusOK, list)
}
