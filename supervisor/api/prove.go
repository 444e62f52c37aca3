package api

import (
	"encoding/hex"
	"net/http"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// The station proves itself to an agent before the agent sends its session
// token. A station that restarts may not get its old port back, and another
// local user who binds the freed port would otherwise receive the token of
// every agent still pointed there. The agent sends its session id and a
// random nonce, with no token; the station answers with an HMAC, keyed
// with that session's token, of the nonce and the address the request came
// to. Only a holder of the token can answer; and since the station signs
// only its own address (the guard refuses any other Host), a program at
// the old port that relays the challenge to the real station gets a proof
// for the wrong address, which the agent refuses.

// proveStation answers an agent's challenge (see above).
func (s *Server) proveStation(w http.ResponseWriter, r *http.Request) {
	var req apitype.ProveRequest
	if !decode(w, r, &req) {
		return
	}
	if n, err := hex.DecodeString(req.Nonce); err != nil || len(n) < 16 || len(n) > 64 {
		writeError(w, http.StatusBadRequest, "prove needs a nonce of 16 to 64 random bytes in hex")
		return
	}
	proof, ok := s.st.SessionProof(req.Session, apitype.ProofMessage(r.Host, req.Nonce))
	if !ok {
		writeError(w, http.StatusNotFound, "no live session "+req.Session+" on this station")
		return
	}
	writeJSON(w, http.StatusOK, apitype.ProveResponse{Proof: hex.EncodeToString(proof)})
}
