package apitype

import "strings"

// The station proves itself to an agent before the agent sends its session
// token (see supervisor/api's prove.go for why); these are the challenge's
// wire shapes.

// ProvePath is the one route served without a token.
const ProvePath = "/v1/agent/prove"

// ProveRequest is a client's challenge: a random nonce, and the session
// whose token the station must prove it holds (empty: the station token,
// for the CLI and the tray).
type ProveRequest struct {
	Session string `json:"session"`
	Nonce   string `json:"nonce"`
}

// ProveResponse is the station's answer: an HMAC of ProofMessage, hex.
type ProveResponse struct {
	Proof string `json:"proof"`
}

// ProofMessage is what the proof signs: the address the client dialed (as
// host:port) and its nonce.
func ProofMessage(host, nonce string) []byte {
	return []byte("buildstation station proof v1\n" + strings.ToLower(host) + "\n" + nonce)
}
