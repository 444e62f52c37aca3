package config

import (
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor/agent"
)

// DefaultNudge is typed into a session that has gone quiet. Most stalls are
// an agent that finished and forgot the last step, so it asks for exactly
// that, in the words the agent can act on: {idle} is how long it really was
// silent, {complete} the tool or command this agent actually has.
const DefaultNudge = "Note: I noticed you've been silent for {idle}. If you've finished the task — run git commit and {complete}. If you're still working, just continue."

// legacyNudge is the default that earlier versions wrote into config.toml:
// it said "5 minutes" whatever the window and named an MCP tool generic
// agents do not have. A config still holding it word for word gets the
// current default, which says the same thing truthfully.
const legacyNudge = "Note: I noticed you've been silent for 5 minutes. If you've finished the task — run git commit and call complete_task with a summary. If you're still working, just continue."

// NudgePlaceholders are the {names} a nudge may use; any other {word} is
// refused when config.toml is read, so a typo is never typed literally.
var NudgePlaceholders = []string{"{idle}", "{task}", "{evidence}", "{complete}"}

// Platform is what the machine decides about the defaults. platform/
// finds it (platform/osdefaults) and the wiring hands it to Load, so
// reading config.toml looks at the file alone and never at the OS.
type Platform struct {
	// Backend is the backend a project gets when config.toml names none:
	// "tmux" on macOS when tmux is on PATH, as docs/contract.md says;
	// "" is "pty".
	Backend string
}

// backend is p's default backend.
func (p Platform) backend() string {
	if p.Backend == "" {
		return "pty"
	}
	return p.Backend
}

// Top-level defaults.
const (
	defaultMaxSessions = 4
	defaultLease       = 60 * time.Second
	// DefaultStopGrace is stop_grace when config.toml says nothing.
	DefaultStopGrace = 2 * time.Minute
	// DefaultTranscriptMax is transcript_max when config.toml says nothing.
	DefaultTranscriptMax = 64 << 20
)

// defaultSettings are what [defaults] holds when it says nothing.
func defaultSettings(plat Platform) Settings {
	return Settings{
		Agent:            "claude",
		Backend:          plat.backend(),
		IdleWindow:       5 * time.Minute,
		BlockWindow:      5 * time.Minute,
		ReviewIdleWindow: 10 * time.Minute,
		CPUAlive:         0.10,
		Breaker:          Breaker{Count: 3, Within: 10 * time.Minute},
		Nudge:            DefaultNudge,
	}
}

// builtinAgents are present whether or not config.toml mentions them, so a
// fresh install can run the common CLIs with no [agents] table at all.
func builtinAgents() map[string]Agent {
	m := map[string]Agent{}
	for _, name := range agent.ProfileNames(true) {
		m[name] = Agent{Name: name, Command: []string{name}, Profile: name}
	}
	return m
}

// DefaultText is written as config.toml on first run. Every setting is shown
// with its default so the file documents itself; it parses to exactly the
// defaults, with no projects.
func DefaultText() string {
	var quoted []string
	for _, name := range agent.ProfileNames(false) {
		quoted = append(quoted, `"`+name+`"`)
	}
	return strings.NewReplacer(
		"@builtins@", strings.Join(agent.ProfileNames(true), ", "),
		"@profiles@", strings.Join(quoted, ", "),
	).Replace(defaultText)
}

// defaultText is DefaultText before the registered profiles are named in
// it (@builtins@, @profiles@).
const defaultText = `# Build Station configuration.
#
# Durations are Go durations ("90s", "5m"); anything from 1s up is accepted.
# An unknown key or a bad value stops the station with the file, line and key
# to fix, and nothing is changed until it is fixed.

max_sessions = 4                    # sessions running at once, across all projects
# board = "postgres://user@host/db" # a team's shared board; default: station.db beside this file
# station = "buildbox"              # this station's name on a shared board; default: host name + hash of the home
# lease = "60s"                     # how long a dead station's claims last (shared board)
# stop_grace = "2m"                 # on a stop (Ctrl-C), how long running sessions get to finish; a second Ctrl-C ends them now
# update_check = true               # the tray asks once a day whether a newer release exists (never downloads)
# transcript_max = "64MiB"          # the most a session's transcript keeps; older output is dropped, with a line saying so

# What every project gets. Any of these keys may also be set inside a
# [[projects]] table to override it for that project alone.
[defaults]
agent = "claude"                    # an [agents.NAME] table, or a built-in: @builtins@
# backend = "pty"                   # or "tmux"; default "pty", or "tmux" on macOS when tmux is installed
idle_window = "5m"                  # console silence that starts the liveness check
block_window = "5m"                 # still no sign of life this long after the nudge: block the task
review_idle_window = "10m"          # idle_window for review sessions, which read quietly
cpu_alive = "10%"                   # descendants' CPU, share of one core over the window, that counts as life
breaker = "3 in 10m"                # this many blocks in a project within this time pause its queue; "off" disables
permission_mode = ""                # "" keeps the agent's own; or "default", "acceptEdits", "plan", "auto", "bypassPermissions"
# daily_budget_usd = 20             # a project's sessions may cost this much a day, then its queue pauses (default: no budget)
nudge = "Note: I noticed you've been silent for {idle}. If you've finished the task — run git commit and {complete}. If you're still working, just continue."
# The nudge may use {idle} (how long it was silent), {task} (its title),
# {evidence} (what each layer last showed) and {complete} (how this agent
# reports it is done: the complete_task tool, or "buildstation agent complete").

# Agent profiles. Built in: @builtins@; a table here
# overrides one of them or adds another.
# [agents.claude]
# command = ["claude"]
# args = []                         # extra arguments
# env = { }                         # extra environment variables
# profile = "claude"                # the wiring, one of @profiles@

# One [[projects]] table per project.
# [[projects]]
# name = "web"
# path = "/src/web"                 # a relative path resolves against this file's folder
# agent = "claude"                  # or an inline command = ["sh", "agent.sh"]
# idle_window = "15m"               # per-project override of any [defaults] key
# gate = "make test"                # optional: what makes a commit green
# review = true                     # completed work goes to a review session first
# concurrency = 1                   # sessions at once for this project
# base = "main"                     # branch new worktrees start from (default: current HEAD)
# worktree_root = "wt"              # default <path>/.buildstation/worktrees; relative to path
# stations = ["buildbox"]           # shared board: which stations may run this project
# remote = "origin"                 # where task branches (bs/…) are pushed and fetched, so a requeued
#                                   # task resumes on any station; "off" for none (default: "origin"
#                                   # on a shared board when the repository has it, else off)

# Prices per million tokens, for the cost of a session (docs/permissions.md
# lists the built-in table). A row names a model or the prefix of a family.
# [prices."claude-sonnet-4"]
# input_per_mtok = 3
# output_per_mtok = 15
# cache_read_per_mtok = 0.30
# cache_write_per_mtok = 3.75

# Programs run when the station wants a person: each gets the event as JSON
# on stdin and runs as a program with arguments (no shell). A failing hook is
# logged; it never holds up a session.
# [hooks]
# on_nudge = ["ntfy", "publish", "my-builds"]    # a silent session was nudged
# on_block = ["/home/me/bin/tell-slack"]         # a task was blocked
# on_permission = ["notify-send", "Build Station", "needs you"] # a dialog waits for a person
# on_done = ["/home/me/bin/tell-slack", "done"]  # a task is done
# timeout = "30s"                                # a hook still running then is killed
`
