package api

import (
	"context"
	"net/http"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Projects is the station's projects' area, what the project verbs serve
// (*station.Projects).
type Projects interface {
	Projects(ctx context.Context) ([]supervisor.ProjectInfo, error)
	// Project is one project's line of Projects.
	Project(ctx context.Context, name string) (supervisor.ProjectInfo, error)
	PauseProject(ctx context.Context, name, reason string) error
	ResumeProject(ctx context.Context, name string) error
	// SetProjectSettings edits a project's overrides in config.toml
	// (validated, applied without a restart); "" removes an override.
	SetProjectSettings(ctx context.Context, name string, set map[string]string) (supervisor.ProjectInfo, error)
	// AddProject and RemoveProject add a project to config.toml and take
	// one out (validated, applied without a restart).
	AddProject(ctx context.Context, np supervisor.NewProject) (supervisor.AddedProject, error)
	RemoveProject(ctx context.Context, name string) error
	// ProjectSetup is what Edit project shows of a project's folder (its
	// .worktreeinclude, suggestions, the agent's one-time steps);
	// SetInclude replaces its .worktreeinclude ("" removes it).
	ProjectSetup(ctx context.Context, name, path string) (supervisor.ProjectSetup, error)
	SetInclude(ctx context.Context, name, text string) error
}

// projectRoutes are the project verbs' routes.
func (s *Server) projectRoutes() {
	project := pathValue("name")
	s.person("GET /v1/projects", verb(s, nothing, http.StatusOK, always("no projects found; add one to config.toml"),
		func(r *http.Request, _ string, _ none) ([]supervisor.ProjectInfo, error) {
			list, err := s.areas.Projects.Projects(r.Context())
			if list == nil {
				list = []supervisor.ProjectInfo{}
			}
			return list, err
		}))
	s.person("GET /v1/projects/{name}", verb(s, project, http.StatusOK, always("no such project; buildstation project ls lists them"),
		func(r *http.Request, name string, _ none) (supervisor.ProjectInfo, error) {
			return s.areas.Projects.Project(r.Context(), name)
		}))
	s.person("POST /v1/projects/{name}/pause", verb(s, project, 0, projectNotFound,
		func(r *http.Request, name string, req apitype.ReasonRequest) (none, error) {
			return done(s.areas.Projects.PauseProject(r.Context(), name, req.Reason))
		}))
	s.personOnly("POST /v1/projects/{name}/resume", verb(s, project, 0, projectNotFound,
		func(r *http.Request, name string, _ none) (none, error) {
			return done(s.areas.Projects.ResumeProject(r.Context(), name))
		}))
	// settings take {"idle_window": "10m", …}; "" removes an override.
	s.personOnly("POST /v1/projects/{name}/settings", verb(s, project, http.StatusOK, projectNotFound,
		func(r *http.Request, name string, set map[string]string) (supervisor.ProjectInfo, error) {
			return s.areas.Projects.SetProjectSettings(r.Context(), name, set)
		}))
	// setup is a project's .worktreeinclude, what its folder suggests and
	// its agent's one-time steps (Edit project); ?path= reads a folder
	// typed for it instead.
	s.person("GET /v1/projects/{name}/setup", verb(s, project, http.StatusOK, projectNotFound,
		func(r *http.Request, name string, _ none) (supervisor.ProjectSetup, error) {
			return s.areas.Projects.ProjectSetup(r.Context(), name, r.URL.Query().Get("path"))
		}))
	// include takes {"text": "…"}: the project's new .worktreeinclude
	// ("" removes it).
	s.personOnly("POST /v1/projects/{name}/include", verb(s, project, 0, projectNotFound,
		func(r *http.Request, name string, req supervisor.IncludeRequest) (none, error) {
			return done(s.areas.Projects.SetInclude(r.Context(), name, req.Text))
		}))
	s.personOnly("POST /v1/projects", s.addProject)
	s.personOnly("DELETE /v1/projects/{name}", verb(s, project, 0, projectNotFound,
		func(r *http.Request, name string, _ none) (none, error) {
			return done(s.areas.Projects.RemoveProject(r.Context(), name))
		}))
}

// addProject takes a supervisor.NewProject and answers the project as the
// station runs it, with the one-time steps its agent still needs.
func (s *Server) addProject(w http.ResponseWriter, r *http.Request) {
	var req supervisor.NewProject
	if !decode(w, r, &req) {
		return
	}
	added, err := s.areas.Projects.AddProject(r.Context(), req)
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
