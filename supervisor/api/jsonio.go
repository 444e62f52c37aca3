package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"

	"github.com/buildstation/buildstation/supervisor"
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
		cleanText(reflect.ValueOf(v))
		return true
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over %d bytes; send less text", maxBody))
	default:
		writeError(w, http.StatusBadRequest, "the request body is not valid: "+err.Error()+"; send one JSON object with only the documented fields")
	}
	return false
}

// cleanText makes every string v holds text as a board keeps it
// (supervisor.BoardText: NUL and invalid UTF-8 become U+FFFD), at the one
// door every request body comes through: the same text then reaches the
// board, config.toml and a terminal whichever board the station uses.
func cleanText(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			cleanText(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				cleanText(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			cleanText(v.Index(i))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(supervisor.BoardText(v.String()))
		}
	}
}
