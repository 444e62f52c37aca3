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
	project := pathValue("name")
	s.person("GET /v1/status", verb(s, nothing, http.StatusOK, always("status not found; restart the station"),
		func(r *http.Request, _ string, _ none) (supervisor.Status, error) { return s.st.Status(r.Context()) }))
	s.person("GET /v1/projects", verb(s, nothing, http.StatusOK, always("no projects found; add one to config.toml"),
		func(r *http.Request, _ string, _ none) ([]supervisor.ProjectInfo, error) {
			list, err := s.st.Projects(r.Context())
			if list == nil {
				list = []supervisor.ProjectInfo{}
			}
			return list, err
		}))
	s.person("GET /v1/projects/{name}", verb(s, project, http.StatusOK, always("no such project; buildstation project ls lists them"),
		func(r *http.Request, name string, _ none) (supervisor.ProjectInfo, error) {
			return s.st.Project(r.Context(), name)
		}))
	s.person("POST /v1/projects/{name}/pause", verb(s, project, 0, projectNotFound,
		func(r *http.Request, name string, req apitype.ReasonRequest) (none, error) {
			return done(s.st.PauseProject(r.Context(), name, req.Reason))
		}))
	s.personOnly("POST /v1/projects/{name}/resume", verb(s, project, 0, projectNotFound,
		func(r *http.Request, name string, _ none) (none, error) {
			return done(s.st.ResumeProject(r.Context(), name))
		}))
	// settings take {"idle_window": "10m", …}; "" removes an override.
	s.personOnly("POST /v1/projects/{name}/settings", verb(s, project, http.StatusOK, projectNotFound,
		func(r *http.Request, name string, set map[string]string) (supervisor.ProjectInfo, error) {
			return s.st.SetProjectSettings(r.Context(), name, set)
		}))
	// setup is a project's .worktreeinclude, what its folder suggests and
	// its agent's one-time steps (Edit project).
	s.person("GET /v1/projects/{name}/setup", verb(s, project, http.StatusOK, projectNotFound,
		func(r *http.Request, name string, _ none) (supervisor.ProjectSetup, error) {
			return s.st.ProjectSetup(r.Context(), name)
		}))
	// include takes {"text": "…"}: the project's new .worktreeinclude
	// ("" removes it).
	s.personOnly("POST /v1/projects/{name}/include", verb(s, project, 0, projectNotFound,
		func(r *http.Request, name string, req supervisor.IncludeRequest) (none, error) {
			return done(s.st.SetInclude(r.Context(), name, req.Text))
		}))
	s.personOnly("POST /v1/projects", s.addProject)
	s.personOnly("DELETE /v1/projects/{name}", verb(s, project, 0, projectNotFound,
		func(r *http.Request, name string, _ none) (none, error) {
			return done(s.st.RemoveProject(r.Context(), name))
		}))
	s.person("GET /v1/agents", s.getAgents)
	// stop asks the station to drain and stop: `service stop` of a logon
	// task, which can only terminate the process, asks this first.
	s.personOnly("POST /v1/station/stop", verb(s, nothing, http.StatusAccepted, always("the station could not be asked to stop; stop its process"),
		func(r *http.Request, _ string, _ none) (apitype.StopAnswer, error) {
			msg, err := s.st.RequestStop(r.Context())
			return apitype.StopAnswer{Message: msg}, err
		}))
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
