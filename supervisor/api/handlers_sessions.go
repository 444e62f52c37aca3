package api

import (
	"net/http"
	"strconv"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	list := s.st.Sessions()
	if list == nil {
		list = []supervisor.SessionInfo{}
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	info, ok := s.st.Session(id)
	if !ok {
		writeError(w, http.StatusNotFound, sessionNotFound(id))
		return
	}
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) sendSession(w http.ResponseWriter, r *http.Request) {
	var req apitype.TextRequest
	if !decode(w, r, &req) {
		return
	}
	if req.Text == "" {
		writeError(w, http.StatusBadRequest, `send needs text to type; send {"text": …}`)
		return
	}
	id := r.PathValue("id")
	if err := s.st.Send(r.Context(), id, req.Text); err != nil {
		s.stationError(w, r, err, sessionNotFound(id))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) nudgeSession(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.st.Nudge(r.Context(), id); err != nil {
		s.stationError(w, r, err, sessionNotFound(id))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) blockSession(w http.ResponseWriter, r *http.Request) {
	var req apitype.ReasonRequest
	if !decode(w, r, &req) {
		return
	}
	id := r.PathValue("id")
	if err := s.st.Block(r.Context(), id, req.Reason); err != nil {
		s.stationError(w, r, err, sessionNotFound(id))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// sessionTranscript is GET /v1/sessions/{id}/transcript?from=N: a session's
// raw output as JSON (data in base64), ended sessions too; {id} may be a
// task id. from < 0 counts back from the end: from=-65536 is the last
// screens, what a blocked card shows.
func (s *Server) sessionTranscript(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var from int64
	if v := r.URL.Query().Get("from"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			writeError(w, http.StatusBadRequest, "from="+v+" is not a byte offset; use a whole number (negative: from the end)")
			return
		}
		from = n
	}
	t, err := s.st.Transcript(id, from)
	if err != nil {
		s.stationError(w, r, err, "no session or task "+id+" has a transcript; session ids look like t2.3")
		return
	}
	writeJSON(w, http.StatusOK, t)
}
