package client

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

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// verifyStation has the station at BaseURL prove that it holds c.Token
// (for session c.SessionID) before the token is sent there.
func (c *Client) verifyStation(ctx context.Context) error {
	u, err := url.Parse(c.BaseURL)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%s %q is not a station URL; run this from inside a Build Station session", apitype.EnvURL, c.BaseURL)
	}
	nb := make([]byte, 32)
	if _, err := rand.Read(nb); err != nil {
		return fmt.Errorf("verify the station: %w", err)
	}
	nonce := hex.EncodeToString(nb)
	b, _ := json.Marshal(apitype.ProveRequest{Session: c.SessionID, Nonce: nonce})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+apitype.ProvePath, strings.NewReader(string(b)))
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
	var pr apitype.ProveResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&pr); err != nil {
		return notStation("its proof is not readable")
	}
	got, err := hex.DecodeString(pr.Proof)
	m := hmac.New(sha256.New, []byte(c.Token))
	m.Write(apitype.ProofMessage(u.Host, nonce))
	if err != nil || !hmac.Equal(got, m.Sum(nil)) {
		return notStation("it could not prove it holds the session's token")
	}
	return nil
}
