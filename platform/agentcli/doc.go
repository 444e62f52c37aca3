// Package agentcli finds the agent CLIs installed on this machine (claude,
// codex, gemini) with their versions, and the one-time steps an agent still
// needs before it can work in a folder unattended — Claude Code's folder
// trust, which it asks a person for on its first session there. It is the
// station's supervisor.AgentFinder: what `project add` and the dashboard's
// Add project check before they write config.toml.
package agentcli
