// Package boardopen opens the board a home's config.toml names: station.db
// in the home (SQLite, the default) or a team's shared PostgreSQL board.
// The daemon opens it as its station; `buildstation board migrate|status`
// opens it as no station, to migrate or look.
package boardopen
