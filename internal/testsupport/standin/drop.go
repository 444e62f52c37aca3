package standin

import "net/http"

// Drop closes the connection of w without an answer, as a network outage
// looks to a client; false when the connection cannot be taken over.
func Drop(w http.ResponseWriter) bool {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return false
	}
	c, _, err := hj.Hijack()
	if err != nil {
		return false
	}
	c.Close()
	return true
}
