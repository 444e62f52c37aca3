package api

import (
	"net/http"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

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
	writeJSON(w, http.StatusCreated, added)
}

func (s *Server) removeProject(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if err := s.st.RemoveProject(r.Context(), name); err != nil {
		s.stationError(w, r, err, projectNotFound(name))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// getAgents lists the agent CLIs found on the station's machine.
func (s *Server) getAgents(w http.ResponseWriter, r *http.Request) {
	list := s.st.AgentCLIs(r.Context())
	if list == nil {
		list = []supervisor.AgentCLI{}
	}
	writeJSON(w, http.StatusOK, list)
}
