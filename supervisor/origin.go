package supervisor

import (
	"context"
)

type originKey struct{}

// WithOrigin marks ctx as an operator action made from inside session id
// (with the station token): the CLI says so when it finds a session's
// marker in its own environment. History then names the session, never "a
// person".
func WithOrigin(ctx context.Context, sessionID string) context.Context {
	if sessionID == "" {
		return ctx
	}
	return context.WithValue(ctx, originKey{}, sessionID)
}

// Origin is the session an operator action came from, as WithOrigin marked
// it; ok is false for a person's own action.
func Origin(ctx context.Context) (sessionID string, ok bool) {
	id, ok := ctx.Value(originKey{}).(string)
	return id, ok
}

type unverifiedKey struct{}

// WithUnverifiedOrigin marks ctx as an operator action whose caller the
// station could not place (the OS does not say which process is at the
// other end of the connection): history says "unverified origin" rather
// than claim a person made it.
func WithUnverifiedOrigin(ctx context.Context) context.Context {
	return context.WithValue(ctx, unverifiedKey{}, true)
}

// OriginUnverified reports whether ctx is WithUnverifiedOrigin's.
func OriginUnverified(ctx context.Context) bool {
	v, _ := ctx.Value(unverifiedKey{}).(bool)
	return v
}

// ActorUnverified is the actor history records for an operator action of
// unverified origin.
const ActorUnverified = "unverified origin"
