package api

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// The station proves itself to every client before the client sends a
// token: to an agent with its session's token, to the CLI and the tray
// (a challenge with no session) with the station token. A station that restarts may not get its old port back, and another
// local user who binds the freed port would otherwise receive the token of
// every agent still pointed there. The agent sends its session id and a
// random nonce, with no token; the station answers with an HMAC, keyed
// with that session's token, of the nonce and the address the request came
// to. Only a holder of the token can answer; and since the station signs
// only its own address (the guard refuses any other Host), a program at
// the old port that relays the challenge to the real station gets a proof
// for the wrong address, which the client refuses. The client proves
// each connection it opens (supervisor/client/prove.go).

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
	msg := apitype.ProofMessage(r.Host, req.Nonce)
	if req.Session == "" {
		m := hmac.New(sha256.New, []byte(s.token))
		m.Write(msg)
		writeJSON(w, http.StatusOK, apitype.ProveResponse{Proof: hex.EncodeToString(m.Sum(nil))})
		return
	}
	proof, ok := s.areas.Agent.SessionProof(req.Session, msg)
	if !ok {
		writeError(w, http.StatusNotFound, "no live session "+req.Session+" on this station")
		return
	}
	writeJSON(w, http.StatusOK, apitype.ProveResponse{Proof: hex.EncodeToString(proof)})
}
