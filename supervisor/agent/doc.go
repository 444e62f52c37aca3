// Package agent knows the agent CLIs a station runs: how each profile
// (claude, codex, gemini, generic) is started and wired to the station's
// MCP tools and hooks, and the words a session is given (its prompt, a
// review's prompt, the nudge). It is pure: it writes files only through the
// function its caller hands it, and it knows nothing of sessions or boards.
package agent
