package station

import (
	"context"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// The areas' verbs (tasks.go, projects.go, sessions.go, asks.go,
// agentverbs.go, control.go, phone.go) are what the local API serves to
// the tray, the CLI and agents. Errors are one sentence that says what to
// do; board errors keep ErrNotFound / ErrConflict underneath for the API's
// status codes.

// sendPatience is how long Send waits to see its text typed.
const sendPatience = 2 * time.Second

// operator is the actor of an operator action: "person", "session ID"
// when it came from inside a session, or "unverified origin" when the
// station could not tell where it came from.
func operator(ctx context.Context) string {
	if id, ok := supervisor.Origin(ctx); ok {
		return "session " + id
	}
	if supervisor.OriginUnverified(ctx) {
		return supervisor.ActorUnverified
	}
	return "person"
}

func operatorWho(ctx context.Context) string {
	if id, ok := supervisor.Origin(ctx); ok {
		return "a program in session " + id + " (with the station token)"
	}
	if supervisor.OriginUnverified(ctx) {
		return "a caller of unverified origin (with the station token)"
	}
	return "a person"
}
