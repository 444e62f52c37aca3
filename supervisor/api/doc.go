// Package api is the station's local HTTP API (the server side; the client
// the tray, the CLI and the agent side use is supervisor/client, and the
// shapes both speak are in supervisor/apitype).
//
// The API listens on loopback only. Every request carries a bearer token:
// the station token (the file "token" in the home folder) may do everything;
// a session token (BUILDSTATION_TOKEN inside a session) may only use the
// /v1/agent/* routes and acts on its own session's task. A request whose Host
// is not the loopback address it reached, or that carries any Origin header,
// is refused before the token is looked at, so a web page cannot reach the
// station through DNS rebinding.
//
// NewMCPHandler serves the same agent-side reports as MCP tools (get_task,
// report_progress, set_status, complete_task, block_task, complete_review)
// over streamable HTTP; the daemon mounts it at /mcp behind RequireSession,
// so the same guard and a session token stand in front of it.
//
// Errors are JSON objects {"error": "..."} holding one sentence that says
// what to do; supervisor/client returns them as *apitype.Error.
package api
