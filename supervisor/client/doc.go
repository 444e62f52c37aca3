// Package client calls a running station's local HTTP API: the one way the
// tray, the CLI and the agent side reach the station. It links nothing of
// the server (no MCP, no board), so a client program carries only the
// vocabulary (package supervisor) and the wire shapes (supervisor/apitype).
//
// Dial finds the station of a home from its station.json and token;
// FromEnv is an agent's client, from the environment a session gets, and
// has the station prove it holds the session's token before sending it.
//
// It speaks HTTP/1.1 itself (wire.go) instead of through net/http: the
// other end is always the station, on loopback, and net/http brings TLS,
// x509, HTTP/2 and IDNA with it — about a megabyte of code the command line
// would link and initialise on every verb's start, and two goroutines per
// connection (its Transport's readLoop and writeLoop). The CLI's start is
// make bench's "CLI start, common verbs, installed build" line;
// cmd/buildstation's TestFrontLinksNoHTTPStack keeps net/http out of it.
// The station's side is Go's net/http server.
package client
