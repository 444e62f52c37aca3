// Package cli is the buildstation command line for scripts and people: the
// task, session, project, status and agent verbs of the contract (docs/contract.md). It
// is a pure client of the station's API (supervisor/api); main handles the
// roles that are not (daemon, demo, tray, service, open).
package cli
