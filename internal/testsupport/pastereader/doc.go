// Pastereader is a small TUI that stands in for an agent to prove how a
// prompt reaches it through a session's terminal: it turns bracketed-paste
// mode on (ESC[?2004h, as Claude Code does), lists the station's MCP tools
// (so the station types the prompt, as it does for Claude Code), then
// records exactly what it receives: the raw bytes (OUT.raw) and what they
// mean (OUT.json): each submission (an Enter outside a paste), how many
// pastes came, and, when the one submission points at the prompt file (the
// one-line form the station types through Windows' ConPTY), that file.
// It then completes its task and exits.
//
//	pastereader OUT      (run as a project's agent command, profile claude)
//
// The windows.yml workflow runs it through the station's ConPTY;
// e2e/station/paste_test.go runs it through the pty backend on Linux.
package main
