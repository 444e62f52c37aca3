// Package client calls a running station's local HTTP API: the one way the
// tray, the CLI and the agent side reach the station. It links nothing of
// the server (no MCP, no board), so a client program carries only the
// vocabulary (package supervisor) and the wire shapes (supervisor/apitype).
//
// Dial finds the station of a home from its station.json and token;
// FromEnv is an agent's client, from the environment a session gets, and
// has the station prove it holds the session's token before sending it.
package client
