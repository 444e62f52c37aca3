package apitype

import "strings"

// The station proves itself to an agent before the agent sends its session
// token (see supervisor/api's prove.go for why); these are the challenge's
// wire shapes.

// ProvePath is the one route served without a token.
const ProvePath = "/v1/agent/prove"

// ProveRequest is the agent's challenge: its session and a random nonce.
type ProveRequest struct {
	Session string `json:"session"`
	Nonce   string `json:"nonce"`
}

// ProveResponse is the station's answer: an HMAC of ProofMessage, hex.
type ProveResponse struct {
	Proof string `json:"proof"`
}

// ProofMessage is what the proof signs: the address the agent dialed (as
// host:port) and its nonce.
func ProofMessage(host, nonce string) []byte {
	return []byte("buildstation station proof v1\n" + strings.ToLower(host) + "\n" + nonce)
}
