package api

import (
	"errors"
	"net/http"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, apitype.ErrorBody{Error: msg})
}

// stationError answers err from the station: ErrNotFound is a 404 with
// notFound as the sentence, ErrConflict a 409 that says why, anything else a
// 500 that points at the log (and is logged).
func (s *Server) stationError(w http.ResponseWriter, r *http.Request, err error, notFound string) {
	// A UserError's text is already the sentence a person should read.
	var ue *supervisor.UserError
	isUser := errors.As(err, &ue)
	switch {
	case errors.Is(err, supervisor.ErrInvalid):
		writeError(w, http.StatusBadRequest, err.Error())
	case errors.Is(err, supervisor.ErrNotFound) && isUser:
		writeError(w, http.StatusNotFound, ue.Msg)
	case errors.Is(err, supervisor.ErrNotFound):
		writeError(w, http.StatusNotFound, notFound)
	case errors.Is(err, supervisor.ErrConflict) && isUser:
		writeError(w, http.StatusConflict, ue.Msg)
	case errors.Is(err, supervisor.ErrConflict):
		writeError(w, http.StatusConflict, err.Error()+"; check its state and try again")
	case errors.Is(err, supervisor.ErrUnreachable):
		// Not the station's fault, and passing: the client may retry.
		w.Header().Set("Retry-After", "2")
		writeError(w, http.StatusServiceUnavailable, "the shared board did not answer ("+err.Error()+"); the station keeps retrying, try again in a moment")
	default:
		s.log.ErrorContext(r.Context(), "api request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, "the station failed: "+err.Error()+"; see the station log")
	}
}

// Sentences for unknown things; they name the command that lists them.
func taskNotFound(id string) string {
	return "task " + id + ` not found; list tasks with "buildstation task ls"`
}

func sessionNotFound(id string) string {
	return "session " + id + ` not found; list sessions with "buildstation session ls"`
}

func projectNotFound(name string) string {
	return "project " + name + ` not found; list projects with "buildstation project ls"`
}
