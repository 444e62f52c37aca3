package supervisor

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// TokenHashPrefix marks a hashed token in a board's record.
const TokenHashPrefix = "sha256:"

// HashToken is how a shared board stores a session token: "sha256:<hex>";
// "" and a token hashed already stay as they are.
func HashToken(token string) string {
	if token == "" || strings.HasPrefix(token, TokenHashPrefix) {
		return token
	}
	sum := sha256.Sum256([]byte(token))
	return TokenHashPrefix + hex.EncodeToString(sum[:])
}
