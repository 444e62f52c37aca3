package api

import (
	"context"
	"net/http"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/agent"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// projectStation is what the station and project verbs serve.
type projectStation interface {
	Status(ctx context.Context) (supervisor.Status, error)
	Projects(ctx context.Context) ([]supervisor.ProjectInfo, error)
	// Project is one project's line of Projects.
	Project(ctx context.Context, name string) (supervisor.ProjectInfo, error)
	PauseProject(ctx context.Context, name, reason string) error
	ResumeProject(ctx context.Context, name string) error
	// SetProjectSettings edits a project's overrides in config.toml
	// (validated, applied without a restart); "" removes an override.
	SetProjectSettings(ctx context.Context, name string, set map[string]string) (supervisor.ProjectInfo, error)
	// AddProject and RemoveProject add a project to config.toml and take
	// one out (validated, applied without a restart); AgentCLIs are the
	// agent CLIs found on the station's machine, to choose from.
	AddProject(ctx context.Context, np supervisor.NewProject) (supervisor.AddedProject, error)
	RemoveProject(ctx context.Context, name string) error
	AgentCLIs(ctx context.Context) []supervisor.AgentCLI
	// ProjectSetup is what Edit project shows of a project's folder (its
	// .worktreeinclude, suggestions, the agent's one-time steps);
	// SetInclude replaces its .worktreeinclude ("" removes it).
	ProjectSetup(ctx context.Context, name string) (supervisor.ProjectSetup, error)
	SetInclude(ctx context.Context, name, text string) error
	// RequestStop asks the station to drain, then stop, as a first
	// Ctrl-C does; it says what happens now.
	RequestStop(ctx context.Context) (string, error)
}

// projectRoutes are the station and project verbs' routes.
func (s *Server) projectRoutes() {
	s.person("GET /v1/status", s.getStatus)
	s.person("GET /v1/projects", s.getProjects)
	s.person("GET /v1/projects/{name}", s.getProject)
	s.person("POST /v1/projects/{name}/pause", s.pauseProject)
	s.personOnly("POST /v1/projects/{name}/resume", s.resumeProject)
	s.personOnly("POST /v1/projects/{name}/settings", s.setProjectSettings)
	s.person("GET /v1/projects/{name}/setup", s.getProjectSetup)
	s.personOnly("POST /v1/projects/{name}/include", s.setInclude)
	s.personOnly("POST /v1/projects", s.addProject)
	s.personOnly("DELETE /v1/projects/{name}", s.removeProject)
	s.person("GET /v1/agents", s.getAgents)
	s.personOnly("POST /v1/station/stop", s.stopStation)
}

func (s *Server) getStatus(w http.ResponseWriter, r *http.Request) {
	st, err := s.st.Status(r.Context())
	if err != nil {
		s.stationError(w, r, err, "status not found; restart the station")
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) getProjects(w http.ResponseWriter, r *http.Request) {
	list, err := s.st.Projects(r.Context())
	if err != nil {
		s.stationError(w, r, err, "no projects found; add one to config.toml")
		return
	}
	if list == nil {
		list = []supervisor.ProjectInfo{}
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) getProject(w http.ResponseWriter, r *http.Request) {
	p, err := s.st.Project(r.Context(), r.PathValue("name"))
	if err != nil {
		s.stationError(w, r, err, "no such project; buildstation project ls lists them")
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) pauseProject(w http.ResponseWriter, r *http.Request) {
	var req apitype.ReasonRequest
	if !decode(w, r, &req) {
		return
	}
	name := r.PathValue("name")
	if err := s.st.PauseProject(r.Context(), name, req.Reason); err != nil {
		s.stationError(w, r, err, projectNotFound(name))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) resumeProject(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if err := s.st.ResumeProject(r.Context(), name); err != nil {
		s.stationError(w, r, err, projectNotFound(name))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// setProjectSettings takes {"idle_window": "10m", …}; "" removes an override.
func (s *Server) setProjectSettings(w http.ResponseWriter, r *http.Request) {
	var req map[string]string
	if !decode(w, r, &req) {
		return
	}
	name := r.PathValue("name")
	p, err := s.st.SetProjectSettings(r.Context(), name, req)
	if err != nil {
		s.stationError(w, r, err, projectNotFound(name))
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// getProjectSetup answers a project's .worktreeinclude, what its folder
// suggests and its agent's one-time steps (Edit project).
func (s *Server) getProjectSetup(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	ps, err := s.st.ProjectSetup(r.Context(), name)
	if err != nil {
		s.stationError(w, r, err, projectNotFound(name))
		return
	}
	writeJSON(w, http.StatusOK, ps)
}

// setInclude takes {"text": "…"}: the project's new .worktreeinclude
// ("" removes it).
func (s *Server) setInclude(w http.ResponseWriter, r *http.Request) {
	var req supervisor.IncludeRequest
	if !decode(w, r, &req) {
		return
	}
	name := r.PathValue("name")
	if err := s.st.SetInclude(r.Context(), name, req.Text); err != nil {
		s.stationError(w, r, err, projectNotFound(name))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// addProject takes a supervisor.NewProject and answers the project as the
// station runs it, with the one-time steps its agent still needs.
func (s *Server) addProject(w http.ResponseWriter, r *http.Request) {
	var req supervisor.NewProject
	if !decode(w, r, &req) {
		return
	}
	added, err := s.st.AddProject(r.Context(), req)
	if err != nil {
		s.stationError(w, r, err, "project not added; check the folder and the agent")
		return
	}
	code := http.StatusCreated
	if req.DryRun {
		code = http.StatusOK // checked, nothing written
	}
	writeJSON(w, code, added)
}

func (s *Server) removeProject(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if err := s.st.RemoveProject(r.Context(), name); err != nil {
		s.stationError(w, r, err, projectNotFound(name))
		return
	}
	w.WriteHeader(http.StatusNoContent)
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
	list := s.st.AgentCLIs(r.Context())
	if list == nil {
		list = []supervisor.AgentCLI{}
	}
	writeJSON(w, http.StatusOK, list)
}

// stopStation asks the station to drain and stop: `service stop` of a
// logon task, which can only terminate the process, asks this first.
func (s *Server) stopStation(w http.ResponseWriter, r *http.Request) {
	msg, err := s.st.RequestStop(r.Context())
	if err != nil {
		s.stationError(w, r, err, "the station could not be asked to stop; stop its process")
		return
	}
	writeJSON(w, http.StatusAccepted, apitype.StopAnswer{Message: msg})
}
