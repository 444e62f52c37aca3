package api

import (
	"net/http"
)

// none is the request of a verb that reads no body, and the answer of one
// that answers 204 No Content.
type none struct{}

// verb is the shape the verbs share: decode the body into Req (a verb
// whose Req is none reads no body), name what the path names (idOf), call
// the station, and answer: ok with Resp's JSON, 204 No Content when Resp
// is none, or the station's error (stationError) with missing(id) as the
// sentence when what was named is not found. A check of the request that
// fails returns supervisor.Invalidf: a 400 with its sentence.
func verb[Req, Resp any](s *Server, idOf func(*http.Request) string, ok int, missing func(id string) string,
	call func(r *http.Request, id string, req Req) (Resp, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req Req
		if _, skip := any(req).(none); !skip && !decode(w, r, &req) {
			return
		}
		id := idOf(r)
		resp, err := call(r, id, req)
		if err != nil {
			s.stationError(w, r, err, missing(id))
			return
		}
		if _, empty := any(resp).(none); empty {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		writeJSON(w, ok, resp)
	}
}

// pathValue names what the path's {key} names.
func pathValue(key string) func(*http.Request) string {
	return func(r *http.Request) string { return r.PathValue(key) }
}

// ownSession names the session whose token made the request (an agent
// route's: a session acts on its own task only).
func ownSession(r *http.Request) string {
	sess, _ := SessionFromContext(r.Context())
	return sess.ID
}

// nothing names nothing: a verb on the station as a whole.
func nothing(*http.Request) string { return "" }

// always is a missing sentence that names nothing.
func always(sentence string) func(string) string {
	return func(string) string { return sentence }
}

// done is an action's answer when it has none (204).
func done(err error) (none, error) { return none{}, err }
