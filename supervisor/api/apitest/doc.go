// Package apitest holds a hand-written fake of the API's Station, for tests
// of the API server, the CLI and the tray that need a station without
// sessions, PTYs or a board.
package apitest
