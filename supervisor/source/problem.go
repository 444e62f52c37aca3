package source

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// APIError is a tracker's answer that refused a request.
type APIError struct {
	Status int    // HTTP status; 0 for a GraphQL error in a 200
	Msg    string // the service's own message
	// Limited: a rate limit (GitHub's 403/429 with no requests left, a
	// Retry-After; Linear's RATELIMITED). Reset is when it lifts.
	Limited bool
	Reset   time.Time
	// Entity: the refusal is about the one issue, comment or pull request
	// written (deleted, 410, 422), not the source: that write is dropped,
	// the source's other writes go on.
	Entity bool
}

// EntityLevel reports whether err refuses one write for what it is about
// (an issue deleted or gone, a write the service cannot take), not for
// the token, a scope, the repository or team, or the network: only that
// write is dropped.
func EntityLevel(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) || ae.Limited {
		return false
	}
	return ae.Entity || ae.Status == 410 || ae.Status == 422 // Gone, Unprocessable Entity
}

func (e *APIError) Error() string {
	if e.Status == 0 {
		return e.Msg
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Msg)
}

// Fix is what a person does to give src a new token, for Problem: run
// login (the keychain), or put it in the variable token_env names and
// restart the station.
func Fix(src config.Source, login string) string {
	if src.TokenEnv != "" {
		return fmt.Sprintf("put a new one in the variable %s (token_env) and restart the station", src.TokenEnv)
	}
	return "run `" + login + "` with a new one"
}

// Problem is err as one sentence a person can act on, for status,
// `source ls` and the tray; what names the source ("github acme/web"),
// fix says how to give it a new token (Fix).
func Problem(what string, err error, fix string) string {
	var ae *APIError
	viaEnv := strings.Contains(fix, "token_env")
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrNoToken) && viaEnv:
		return fmt.Sprintf("%s has no token (%v): set the variable for the station and restart it", what, err)
	case errors.Is(err, ErrNoToken):
		return fmt.Sprintf("%s has no token (%v): %s, or set token_env in config.toml", what, err, strings.Replace(fix, " with a new one", "", 1))
	case errors.Is(err, context.DeadlineExceeded) || timedOut(err):
		return fmt.Sprintf("%s did not answer in time; retrying, and writes wait in the outbox", what)
	case errors.Is(err, supervisor.ErrUnreachable):
		return fmt.Sprintf("%s cannot be reached (network down?); retrying, and writes wait in the outbox", what)
	case !errors.As(err, &ae):
		return fmt.Sprintf("%s failed: %v", what, err)
	case ae.Limited:
		return fmt.Sprintf("%s is rate limited until %s; polling and writes resume then", what, ae.Reset.Local().Format("15:04:05"))
	case ae.Status >= 500:
		return fmt.Sprintf("%s answered with a server error (HTTP %d); retrying, and writes wait in the outbox", what, ae.Status)
	case ae.Status == 401:
		return fmt.Sprintf("%s refused the token (401: expired or revoked): %s", what, fix)
	case ae.Status == 403:
		return fmt.Sprintf("%s refused access (403: the token lacks a scope, e.g. repo or issues:write): give it the scope, or %s", what, strings.Replace(fix, "with a new one", "with one that has it", 1))
	case ae.Status == 404:
		return fmt.Sprintf("%s was not found (404): check repo or team in config.toml, and that the token can see it", what)
	}
	return fmt.Sprintf("%s refused a request (%v)", what, ae)
}

// timedOut reports whether err is a request that ran out of time (a
// net.Error's, or url.Error's, Timeout), read through its method so that
// the engine does not import package net.
func timedOut(err error) bool {
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
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
	case ae.Status == 401, ae.Status == 403, ae.Status == 404:
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
