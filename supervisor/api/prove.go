package api

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
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

// provePath is the one route served without a token.
const provePath = "/v1/agent/prove"

type proveRequest struct {
	Session string `json:"session"`
	Nonce   string `json:"nonce"`
}

type proveResponse struct {
	Proof string `json:"proof"`
}

// proofMessage is what the proof signs: the address the agent dialed (as
// host:port) and its nonce.
func proofMessage(host, nonce string) []byte {
	return []byte("buildstation station proof v1\n" + strings.ToLower(host) + "\n" + nonce)
}

func (s *Server) proveStation(w http.ResponseWriter, r *http.Request) {
	var req proveRequest
	if !decode(w, r, &req) {
		return
	}
	if n, err := hex.DecodeString(req.Nonce); err != nil || len(n) < 16 || len(n) > 64 {
		writeError(w, http.StatusBadRequest, "prove needs a nonce of 16 to 64 random bytes in hex")
		return
	}
	proof, ok := s.st.SessionProof(req.Session, proofMessage(r.Host, req.Nonce))
	if !ok {
		writeError(w, http.StatusNotFound, "no live session "+req.Session+" on this station")
		return
	}
	writeJSON(w, http.StatusOK, proveResponse{Proof: hex.EncodeToString(proof)})
}

// verifyStation has the station at BaseURL prove that it holds c.Token
// (for session c.SessionID) before the token is sent there.
func (c *Client) verifyStation(ctx context.Context) error {
	u, err := url.Parse(c.BaseURL)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%s %q is not a station URL; run this from inside a Build Station session", EnvURL, c.BaseURL)
	}
	nb := make([]byte, 32)
	if _, err := rand.Read(nb); err != nil {
		return fmt.Errorf("verify the station: %w", err)
	}
	nonce := hex.EncodeToString(nb)
	b, _ := json.Marshal(proveRequest{Session: c.SessionID, Nonce: nonce})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+provePath, strings.NewReader(string(b)))
	if err != nil {
		return fmt.Errorf("verify the station: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return c.transportError(err)
	}
	defer resp.Body.Close()
	notStation := func(why string) error {
		return fmt.Errorf("the program at %s is not this session's station (%s), so the session token was not sent to it; "+
			"if the station restarted on another port, the session cannot reach it: requeue the task", c.BaseURL, why)
	}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return fmt.Errorf("the station at %s has no live session %s (it has ended), so the session token was not sent", c.BaseURL, c.SessionID)
	default:
		// The station's own refusals (503 while busy or its board is
		// away) read as usual, so callers can retry them; the token was
		// not sent either way.
		return readError(resp)
	}
	var pr proveResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&pr); err != nil {
		return notStation("its proof is not readable")
	}
	got, err := hex.DecodeString(pr.Proof)
	m := hmac.New(sha256.New, []byte(c.Token))
	m.Write(proofMessage(u.Host, nonce))
	if err != nil || !hmac.Equal(got, m.Sum(nil)) {
		return notStation("it could not prove it holds the session's token")
	}
	return nil
}
