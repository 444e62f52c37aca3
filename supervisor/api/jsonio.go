package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// maxBody caps request bodies: every request is a few fields of text, and a
// local program must not be able to make the station buffer gigabytes.
const maxBody = 1 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// decode reads one JSON object into v, refusing unknown fields (a typo
// must not be silently ignored) and bodies over maxBody. An empty body
// leaves v as it is, for routes whose fields are all optional. On failure it
// has answered the request and returns false.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	return decodeBody(w, r, v, true)
}

// decodeLenient is decode that ignores unknown fields, for bodies the
// station does not define: a hook's JSON is the agent CLI's, with many more
// fields than the station reads, and more in each new version.
func decodeLenient(w http.ResponseWriter, r *http.Request, v any) bool {
	return decodeBody(w, r, v, false)
}

func decodeBody(w http.ResponseWriter, r *http.Request, v any, strict bool) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	var tooBig *http.MaxBytesError
	switch {
	case err == nil, errors.Is(err, io.EOF):
		return true
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over %d bytes; send less text", maxBody))
	default:
		writeError(w, http.StatusBadRequest, "the request body is not valid: "+err.Error()+"; send one JSON object with only the documented fields")
	}
	return false
}
