// Package apitype holds what the station's API and its clients share: the
// request and answer shapes, the refusal (Error), the files a client finds
// the station by (station.json, token), the attach stream's frames, the
// station's proof to an agent, and the environment and header names.
// Both supervisor/api (the server) and supervisor/client import it; it
// imports neither.
package apitype
