// Package boardcmd is the board verbs' way to the board (cli.Deps.Boards):
// `buildstation board migrate|status|cap` open the board a home's
// config.toml names as no station, through internal/wiring/boardopen and the
// shared board's own functions. It sits apart from package cli so that the
// command line links no store; main wires it in.
package boardcmd
