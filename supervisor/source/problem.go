package source

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// APIError is a tracker's answer that refused a request.
type APIError struct {
	Status int    // HTTP status; 0 for a GraphQL error in a 200
	Msg    string // the service's own message
	// Limited: a rate limit (GitHub's 403/429 with no requests left, a
	// Retry-After; Linear's RATELIMITED). Reset is when it lifts.
	Limited bool
	Reset   time.Time
}

func (e *APIError) Error() string {
	if e.Status == 0 {
		return e.Msg
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Msg)
}

// Problem is err as one sentence a person can act on, for status,
// `source ls` and the tray; what names the source ("github acme/web").
func Problem(what string, err error, login string) string {
	var ae *APIError
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrNoToken):
		return fmt.Sprintf("%s has no token (%v): run `%s`, or set token_env in config.toml", what, err, login)
	case errors.Is(err, supervisor.ErrUnreachable):
		return fmt.Sprintf("%s cannot be reached (network down?); retrying, and writes wait in the outbox", what)
	case !errors.As(err, &ae):
		return fmt.Sprintf("%s failed: %v", what, err)
	case ae.Limited:
		return fmt.Sprintf("%s is rate limited until %s; polling and writes resume then", what, ae.Reset.Local().Format("15:04:05"))
	case ae.Status == http.StatusUnauthorized:
		return fmt.Sprintf("%s refused the token (401: expired or revoked): run `%s` with a new one", what, login)
	case ae.Status == http.StatusForbidden:
		return fmt.Sprintf("%s refused access (403: the token lacks a scope, e.g. repo or issues:write): give it the scope and run `%s`", what, login)
	case ae.Status == http.StatusNotFound:
		return fmt.Sprintf("%s was not found (404): check repo or team in config.toml, and that the token can see it", what)
	}
	return fmt.Sprintf("%s refused a request (%v)", what, ae)
}

// ErrNoToken is a source without a token: neither the keychain nor
// token_env holds one.
var ErrNoToken = errors.New("no token")

// Retryable says whether a write that failed with err may succeed later
// unchanged (the network, a rate limit, a token or a scope a person can
// fix, a server's own error); a write refused for what it is (422) is not
// retried forever.
func Retryable(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return true
	}
	switch {
	case ae.Limited, ae.Status >= 500, ae.Status == 0:
		return true
	case ae.Status == http.StatusUnauthorized, ae.Status == http.StatusForbidden, ae.Status == http.StatusNotFound:
		return true
	}
	return false
}

// waitUntil is when a source may be asked again after err: the rate
// limit's reset, or now plus the back-off.
func waitUntil(err error, now time.Time, backoff time.Duration) time.Time {
	var ae *APIError
	if errors.As(err, &ae) && ae.Limited && ae.Reset.After(now) {
		return ae.Reset
	}
	return now.Add(backoff)
}
