// Package daemon wires one station together: config, board, spawner, the
// local API and the engine (supervisor/station), and runs them until told to stop. It is what
// `buildstation daemon` and `buildstation demo` run.
package daemon
