// Package boardtest is the conformance suite every supervisor.Board runs:
// the embedded SQLite store and a team's shared PostgreSQL board. The
// scheduler and the API rely on what it checks (ids, oldest-first order,
// one winner per race, a history row per transition), so a new board passes
// it before anything else uses it.
package boardtest
