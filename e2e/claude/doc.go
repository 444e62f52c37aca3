// Package claude runs the station end to end against the real Claude Code CLI:
// the buildstation binary as a subprocess, driven through its own CLI, with
// a scripted stand-in of the Anthropic Messages API in place of the model.
//
// The tests find Claude Code through CLAUDE_BIN, else
// <repo>/.cache/claude/node_modules/.bin/claude, else PATH. Without it they
// skip, except in CI (CI=true), where a missing CLI fails the run.
package claude
