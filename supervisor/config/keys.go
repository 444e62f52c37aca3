package config

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/buildstation/buildstation/supervisor/agent"
)

// Key is one key of config.toml, declared once in Keys: validation's lists
// of allowed keys, its default, the first-run config.toml (DefaultText),
// the tray's editable keys, project set's keys and docs/configuration.md
// are all read from it.
type Key struct {
	Table string // a Tables name: "" is the top level
	Name  string
	Type  string // how a value is written, for the docs
	// Default is the default as TOML ("4", `"5m"`): the checker applies
	// it (declaredDefaults), the first-run config.toml shows it commented
	// out, the docs list it; "" when there is none, and Example is shown
	// instead.
	Default string
	Example string
	About   string // what it does; @builtins@ and @profiles@ name the agent registry's
	// Setting: a [defaults] key that any [[projects]] table may set too.
	Setting bool
	// Editable: the tray may change it per project (EditableKeys).
	Editable bool
	// read checks a value written for the key and puts it where d says.
	read func(c *checker, d dst, k keyPath, v any)
	// show is a setting's value in s as `project set` takes it back: what
	// Edit project shows as the default a project's field leaves.
	show func(s Settings) string
}

// dst is where a key's value goes: the Config for a top-level key, the
// Settings for a [defaults] one (or a project's), the Project, the agent,
// the source, the price row, the Hooks, the Phone; agents are the agent
// names a setting may use.
type dst struct {
	cfg    *Config
	s      *Settings
	p      *Project
	a      *Agent
	src    *Source
	pr     *Price
	h      *Hooks
	ph     *Phone
	agents map[string]Agent
}

// into is the read of a key whose value parse checks and which is kept
// in the field at picks, when it is right: the shape of most keys.
func into[T any](parse func(c *checker, k keyPath, v any) (T, bool), at func(d dst) *T) func(c *checker, d dst, k keyPath, v any) {
	return func(c *checker, d dst, k keyPath, v any) { keep(at(d))(parse(c, k, v)) }
}

// tokenEnv is the read of a token_env key: the name of the environment
// variable that holds a token (example, in the hint), kept in the field at
// picks.
func tokenEnv(example string, at func(d dst) *string) func(c *checker, d dst, k keyPath, v any) {
	return func(c *checker, d dst, k keyPath, v any) {
		if e, ok := c.str(k, v); ok && !envVarRe().MatchString(e) {
			c.fail(k, nil, fmt.Sprintf("%q is not a variable name", e), fmt.Sprintf("name the environment variable that holds the token, like token_env = %q", example))
		} else {
			*at(d) = e
		}
	}
}

// readKey reads v, written for table's key name, into d, as the key's
// declaration says; false when table has no such key that it reads.
func (c *checker) readKey(table, name string, d dst, k keyPath, v any) bool {
	for _, key := range Keys {
		if key.Table == table && key.Name == name && key.read != nil {
			key.read(c, d, k, v)
			return true
		}
	}
	return false
}

// Table is one table of config.toml, in the order the first-run file and
// the docs show them.
type Table struct {
	Name   string // as Key.Table
	Array  bool   // an array of tables: [[projects]]
	Header string // as the first-run file shows it: "[agents.claude]"; "" for the top level
	// Open: the first-run file writes the header itself (not commented),
	// so that a key uncommented below it lands in this table.
	Open  bool
	Intro string // comment lines above it in config.toml
}

// Tables are config.toml's tables.
var Tables = []Table{
	{Name: "", Intro: `Build Station configuration.

Live defaults: a key commented out shows its default, and a default changed
in a newer version reaches you unless you set the key. Uncomment a line to
change it.
Durations are Go durations ("90s", "5m"); anything from 1s up is accepted.
An unknown key or a bad value stops the station with the file, line and key
to fix, and nothing is changed until it is fixed.`},
	{Name: "defaults", Header: "[defaults]", Open: true, Intro: `What every project gets. Any of these keys may also be set inside a
[[projects]] table to override it for that project alone.`},
	{Name: "agents.NAME", Header: "[agents.claude]", Intro: `Agent profiles. Built in: @builtins@; a table here
overrides one of them or adds another.`},
	{Name: "projects", Array: true, Header: "[[projects]]", Intro: `One [[projects]] table per project. Any [defaults] key may be set in it
too, to override it for that project alone.`},
	{Name: "sources", Array: true, Header: "[[sources]]", Intro: `Issues that become tasks: a GitHub repository's or a Linear team's, with a
label (docs/sources.md). Read when the station starts.`},
	{Name: `prices."MODEL"`, Header: `[prices."claude-sonnet-4"]`, Intro: `Prices per million tokens, for the cost of a session (docs/permissions.md
lists the built-in table). A row names a model or the prefix of a family.`},
	{Name: "phone", Header: "[phone]", Intro: `Notices forwarded to a phone, through ntfy (with Allow and Deny on a
permission) or a webhook (docs/phone.md). The access token is never here:
token_env names its variable, or the keychain keeps it.`},
	{Name: "hooks", Header: "[hooks]", Intro: `Programs run when the station wants a person: each gets the event as JSON
on stdin and runs as a program with arguments (no shell). A failing hook is
logged; it never holds up a session.`},
}

// Keys are every key config.toml takes, table by table in Tables' order.
var Keys = []Key{
	{Name: "max_sessions", Type: "integer", Default: "4", About: "sessions running at once, across all projects",
		read: into((*checker).sessions, func(d dst) *int { return &d.cfg.MaxSessions })},
	{Name: "board", Type: "string", Example: `"postgres://user@host/db"`, About: "a team's shared board; default: station.db beside this file",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.cfg.Board, _ = c.str(k, v)
		}},
	{Name: "station", Type: "string", Example: `"buildbox"`, About: "this station's name on a shared board; default: host name + hash of the home",
		read: func(c *checker, d dst, k keyPath, v any) {
			if s, ok := c.str(k, v); ok {
				if strings.TrimSpace(s) == "" {
					c.fail(k, nil, "is empty", "name this station (unique among the stations sharing a board), or remove the line to use the host name and a hash of the home")
				}
				d.cfg.Station = s
			}
		}},
	{Name: "lease", Type: "duration", Default: `"60s"`, About: "how long a dead station's claims last (shared board)",
		read: into((*checker).duration, func(d dst) *time.Duration { return &d.cfg.Lease })},
	{Name: "stop_grace", Type: "duration", Default: `"2m"`, About: "on a stop (Ctrl-C), how long running sessions get to finish; a second Ctrl-C ends them now",
		read: into((*checker).duration, func(d dst) *time.Duration { return &d.cfg.StopGrace })},
	{Name: "update_check", Type: "boolean", Default: "true", About: "the tray asks once a day whether a newer release exists (never downloads)",
		read: into((*checker).boolean, func(d dst) *bool { return &d.cfg.UpdateCheck })},
	{Name: "transcript_max", Type: "size", Default: `"64MiB"`, About: "the most a session's transcript keeps; older output is dropped, with a line saying so",
		read: into((*checker).size, func(d dst) *int64 { return &d.cfg.TranscriptMax })},

	{Table: "defaults", Name: "agent", Type: "string", Default: `"claude"`, Setting: true, Editable: true, About: "an [agents.NAME] table, or a built-in: @builtins@",
		read: func(c *checker, d dst, k keyPath, v any) {
			if a, ok := c.str(k, v); ok {
				if _, known := d.agents[a]; !known {
					c.fail(k, nil, fmt.Sprintf("%q is not an agent", a),
						fmt.Sprintf("add an [agents.%s] table or use one of %s", a, quoteList(sortedKeys(d.agents))))
				}
				d.s.Agent = a
			}
		},
		show: func(s Settings) string {
			return s.Agent
		}},
	{Table: "defaults", Name: "backend", Type: "string", Default: `"pty"`, Setting: true, Editable: true, About: `or "tmux"; default "pty", or "tmux" on macOS when tmux is installed`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.s.Backend, _ = c.oneOf(k, v, "a backend", backends)
		},
		show: func(s Settings) string {
			return s.Backend
		}},
	{Table: "defaults", Name: "idle_window", Type: "duration", Default: `"5m"`, Setting: true, Editable: true, About: "console silence that starts the liveness check",
		read: into((*checker).duration, func(d dst) *time.Duration { return &d.s.IdleWindow }),
		show: func(s Settings) string { return ShortDuration(s.IdleWindow) }},
	{Table: "defaults", Name: "block_window", Type: "duration", Default: `"5m"`, Setting: true, Editable: true, About: "still no sign of life this long after the nudge: block the task",
		read: into((*checker).duration, func(d dst) *time.Duration { return &d.s.BlockWindow }),
		show: func(s Settings) string { return ShortDuration(s.BlockWindow) }},
	{Table: "defaults", Name: "review_idle_window", Type: "duration", Default: `"10m"`, Setting: true, Editable: true, About: "idle_window for review sessions, which read quietly",
		read: into((*checker).duration, func(d dst) *time.Duration { return &d.s.ReviewIdleWindow }),
		show: func(s Settings) string { return ShortDuration(s.ReviewIdleWindow) }},
	{Table: "defaults", Name: "cpu_alive", Type: "percentage", Default: `"10%"`, Setting: true, Editable: true, About: "descendants' CPU, share of one core over the window, that counts as life",
		read: func(c *checker, d dst, k keyPath, v any) {
			if str, ok := c.str(k, v); ok {
				f, err := parseCPU(str)
				if err != nil {
					c.fail(k, err, err.Error(), cpuFix)
				}
				d.s.CPUAlive = f
			}
		},
		show: func(s Settings) string {
			return strconv.FormatFloat(s.CPUAlive*100, 'f', -1, 64) + "%"
		}},
	{Table: "defaults", Name: "breaker", Type: `"N in D" or "off"`, Default: `"3 in 10m"`, Setting: true, Editable: true, About: `this many blocks in a project within this time pause its queue; "off" disables`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.s.Breaker, _ = c.breaker(k, v)
		},
		show: func(s Settings) string {
			if s.Breaker.Count <= 0 {
				return "off"
			}
			return fmt.Sprintf("%d in %s", s.Breaker.Count, ShortDuration(s.Breaker.Within))
		}},
	{Table: "defaults", Name: "nudge", Type: "string", Default: quoteTOML(DefaultNudge), Setting: true, Editable: true, About: "@placeholders@",
		read: func(c *checker, d dst, k keyPath, v any) {
			if str, ok := c.str(k, v); ok {
				if strings.TrimSpace(str) == "" {
					c.fail(k, nil, "is empty", "write the text to type into a quiet session")
				}
				if bad := unknownPlaceholder(str); bad != "" {
					c.fail(k, nil, "has an unknown placeholder "+bad, "use "+strings.Join(agent.PlaceholderNames(), ", "))
				}
				d.s.Nudge = str
			}
		},
		show: func(s Settings) string {
			return s.Nudge
		}},
	{Table: "defaults", Name: "permission_mode", Type: "string", Default: `""`, Setting: true, Editable: true, About: `"" keeps the agent's own; or "default", "acceptEdits", "plan", "auto", "bypassPermissions"`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.s.PermissionMode, _ = c.oneOf(k, v, "a permission mode", permissionModes)
		},
		show: func(s Settings) string {
			return s.PermissionMode
		}},
	{Table: "defaults", Name: "daily_budget_usd", Type: "number", Example: "20", Setting: true, About: "a project's sessions may cost this much a day, then its queue pauses (default: no budget)",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.s.DailyBudgetUSD, _ = c.money(k, v)
		},
		show: func(s Settings) string {
			if s.DailyBudgetUSD <= 0 {
				return ""
			}
			return strconv.FormatFloat(s.DailyBudgetUSD, 'f', -1, 64)
		}},

	{Table: "agents.NAME", Name: "command", Type: "array of strings", Example: `["claude"]`, About: "the program and its fixed arguments",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.a.Command, _ = c.strings(k, v)
		}},
	{Table: "agents.NAME", Name: "args", Type: "array of strings", Example: `[]`, About: "extra arguments",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.a.Args, _ = c.strings(k, v)
		}},
	{Table: "agents.NAME", Name: "env", Type: "table of strings", Example: `{ }`, About: "extra environment variables",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.a.Env = c.env(k, v)
		}},
	{Table: "agents.NAME", Name: "profile", Type: "string", Example: `"claude"`, About: "the wiring, one of @profiles@",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.a.Profile, _ = c.oneOf(k, v, "a profile", profiles())
		}},

	{Table: "projects", Name: "name", Type: "string", Example: `"web"`, About: "the name tasks use for this project (required)",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.p.Name, _ = c.str(k, v)
		}},
	{Table: "projects", Name: "path", Type: "string", Example: `"/src/web"`, About: "the project's folder (required); a relative path resolves against this file's folder",
		read: func(c *checker, d dst, k keyPath, v any) {
			if s, ok := c.str(k, v); ok {
				d.p.Path = c.folder(k, s)
			}
		}},
	{Table: "projects", Name: "command", Type: "array of strings", Example: `["my-agent", "--yes"]`, About: "an inline agent command, instead of agent",
		read: func(c *checker, d dst, k keyPath, v any) {
			if s, ok := c.strings(k, v); ok {
				if len(s) == 0 || s[0] == "" {
					c.fail(k, nil, "is empty", `name the program to run, like command = ["sh", "agent.sh"], or remove it to use agent`)
				}
				d.p.Command = s
			}
		}},
	{Table: "projects", Name: "args", Type: "array of strings", Example: `["--verbose"]`, About: "appended to the agent's arguments",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.p.Args, _ = c.strings(k, v)
		}},
	{Table: "projects", Name: "gate", Type: "string", Example: `"make test"`, About: "optional: what makes a commit green",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.p.Gate, _ = c.str(k, v)
		}},
	{Table: "projects", Name: "review", Type: "boolean", Default: "false", Example: "true", About: "completed work goes to a review session first",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.p.Review, _ = c.boolean(k, v)
		}},
	{Table: "projects", Name: "review_rounds", Type: "integer", Default: "3", About: `automatic rounds a pull request's "changes requested", review comments or
failing checks may start (the task requeued on its branch with them) before it blocks
for a person (0: none)`,
		read: func(c *checker, d dst, k keyPath, v any) {
			if n, ok := c.integer(k, v); ok && n < 0 {
				c.fail(k, nil, fmt.Sprintf("%d is less than 0", n), "write how many automatic rounds a pull request's review may start, 0 for none")
			} else if ok {
				d.p.ReviewRounds = n
			}
		}},
	{Table: "projects", Name: "concurrency", Type: "integer", Default: "1", About: "sessions at once for this project",
		read: into((*checker).sessions, func(d dst) *int { return &d.p.Concurrency })},
	{Table: "projects", Name: "setup", Type: "string", Example: `"npm ci"`, About: `a shell command run in each new task worktree and gate checkout, after
.worktreeinclude's files are copied in (see docs/configuration.md); one that fails blocks the task
and is not counted against the agent`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.p.Setup, _ = c.str(k, v)
		}},
	{Table: "projects", Name: "setup_timeout", Type: "duration", Default: `"10m"`, About: "a setup still running then has failed",
		read: into((*checker).duration, func(d dst) *time.Duration { return &d.p.SetupTimeout })},
	{Table: "projects", Name: "base", Type: "string", Example: `"main"`, About: "branch new worktrees start from (default: current HEAD)",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.p.Base, _ = c.str(k, v)
		}},
	{Table: "projects", Name: "worktree_root", Type: "string", Example: `"wt"`, About: "default <path>/.buildstation/worktrees; relative to path",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.p.WorktreeRoot, _ = c.str(k, v) // resolved against path once it is known
		}},
	{Table: "projects", Name: "stations", Type: "array of strings", Example: `["buildbox"]`, About: "shared board: which stations may run this project",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.p.Stations, _ = c.strings(k, v)
		}},
	{Table: "projects", Name: "remote", Type: "string", Example: `"origin"`, About: `where task branches (bs/…) are pushed and fetched, so a requeued
task resumes on any station; "off" for none (default: "origin"
on a shared board when the repository has it, else off)`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.p.Remote, d.p.RemoteAuto = c.remote(k, v), false
		}},

	{Table: "sources", Name: "kind", Type: "string", Example: `"github"`, About: `"github" or "linear"`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.src.Kind, _ = c.oneOf(k, v, "a kind of source", []string{SourceGitHub, SourceLinear})
		}},
	{Table: "sources", Name: "project", Type: "string", Example: `"web"`, About: "the [[projects]] name its tasks go to",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.src.Project, _ = c.str(k, v)
		}},
	{Table: "sources", Name: "repo", Type: "string", Example: `"acme/web"`, About: "github: the repository, owner/name",
		read: func(c *checker, d dst, k keyPath, v any) {
			if r, ok := c.str(k, v); ok && !repoRe().MatchString(r) {
				c.fail(k, nil, fmt.Sprintf("%q is not owner/name", r), `write the repository like repo = "acme/web"`)
			} else {
				d.src.Repo = r
			}
		}},
	{Table: "sources", Name: "team", Type: "string", Example: `"ENG"`, About: "linear: the team's key",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.src.Team, _ = c.str(k, v)
		}},
	{Table: "sources", Name: "label", Type: "string", Example: `"agent"`, About: `only issues with this label (default "agent")`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.src.Label, _ = c.str(k, v)
		}},
	{Table: "sources", Name: "state", Type: "string", Example: `"Todo"`, About: `linear: the workflow state to import from (default "Todo")`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.src.State, _ = c.str(k, v)
		}},
	{Table: "sources", Name: "api_url", Type: "string", Example: `"https://github.example.com/api/v3"`, About: "GitHub Enterprise Server; default: the service's own",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.src.APIURL = c.apiURL(k, v)
		}},
	{Table: "sources", Name: "poll", Type: "duration", Example: `"1m"`, About: "time between polls: at least 1m (default), only a stand-in on a loopback api_url may go lower",
		read: into((*checker).duration, func(d dst) *time.Duration { return &d.src.Poll })},
	{Table: "sources", Name: "token_env", Type: "string", Example: `"GITHUB_TOKEN"`, About: "read the token from this variable instead of the keychain",
		read: tokenEnv("GITHUB_TOKEN", func(d dst) *string { return &d.src.TokenEnv })},

	{Table: `prices."MODEL"`, Name: "input_per_mtok", Type: "number", Example: "3", About: "US dollars per million input tokens",
		read: into((*checker).money, func(d dst) *float64 { return &d.pr.InputPerMTok })},
	{Table: `prices."MODEL"`, Name: "output_per_mtok", Type: "number", Example: "15", About: "per million output tokens",
		read: into((*checker).money, func(d dst) *float64 { return &d.pr.OutputPerMTok })},
	{Table: `prices."MODEL"`, Name: "cache_read_per_mtok", Type: "number", Example: "0.30", About: "per million tokens read from the cache",
		read: into((*checker).money, func(d dst) *float64 { return &d.pr.CacheReadPerMTok })},
	{Table: `prices."MODEL"`, Name: "cache_write_per_mtok", Type: "number", Example: "3.75", About: "per million tokens written to the cache",
		read: into((*checker).money, func(d dst) *float64 { return &d.pr.CacheWritePerMTok })},
	{Table: `prices."MODEL"`, Name: "context_window", Type: "integer", Example: "200000", About: "the model's context window in tokens (default 200000)",
		read: func(c *checker, d dst, k keyPath, v any) {
			if f, ok := c.money(k, v); ok {
				d.pr.ContextWindow = int64(f)
			}
		}},

	{Table: "phone", Name: "service", Type: "string", Example: `"ntfy"`, About: `"ntfy" or "webhook"`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.ph.Service, _ = c.oneOf(k, v, "a service Build Station forwards to", []string{PhoneNtfy, PhoneWebhook})
		}},
	{Table: "phone", Name: "url", Type: "string", Example: `"https://ntfy.sh"`, About: "the ntfy server, or the webhook's address",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.ph.URL = c.phoneURL(k, v)
		}},
	{Table: "phone", Name: "topic", Type: "string", Example: `"builds-k3x9q"`, About: "ntfy: the topic (a password on a public server); the phone's answers come back on <topic>-reply",
		read: func(c *checker, d dst, k keyPath, v any) {
			if s, ok := c.str(k, v); ok && !topicRe().MatchString(s) {
				c.fail(k, nil, fmt.Sprintf("%q is not an ntfy topic", s), "use up to 58 letters, digits, '-' and '_' (the station adds -reply for the phone's answers), and pick one nobody guesses")
			} else {
				d.ph.Topic = s
			}
		}},
	{Table: "phone", Name: "token_env", Type: "string", Example: `"NTFY_TOKEN"`, About: "read the access token from this variable instead of the keychain",
		read: tokenEnv("NTFY_TOKEN", func(d dst) *string { return &d.ph.TokenEnv })},
	{Table: "phone", Name: "shape", Type: "string", Example: `"slack"`, About: `webhook: the body, "json" (default), "slack" or "discord"`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.ph.Shape, _ = c.oneOf(k, v, "a webhook shape", PhoneShapes)
		}},
	{Table: "phone", Name: "kinds", Type: "array of strings", Example: `["permission", "question", "blocked", "station"]`, About: `what goes out, of "permission", "question", "blocked", "finished", "station" (default: all but finished)`,
		read: func(c *checker, d dst, k keyPath, v any) {
			d.ph.Kinds = c.phoneKinds(k, v)
		}},
	{Table: "phone", Name: "projects", Type: "array of strings", Example: `["web"]`, About: "only these projects' notices (default: every project's)",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.ph.Projects, _ = c.strings(k, v)
		}},
	{Table: "phone", Name: "quiet", Type: "string", Example: `"23:00-07:00"`, About: "quiet hours, local time: only quiet_kinds go out; the rest waits for the hours' end",
		read: func(c *checker, d dst, k keyPath, v any) {
			if s, ok := c.str(k, v); ok {
				q, err := ParseQuiet(s)
				if err != nil {
					c.fail(k, err, err.Error(), `write the hours as "HH:MM-HH:MM", local time, like quiet = "23:00-07:00"`)
				}
				d.ph.Quiet = q
			}
		}},
	{Table: "phone", Name: "quiet_kinds", Type: "array of strings", Example: `["permission"]`, About: "the kinds that still go out in quiet hours (default: none)",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.ph.QuietKinds = c.phoneKinds(k, v)
		}},

	{Table: "hooks", Name: "on_nudge", Type: "array of strings", Example: `["ntfy", "publish", "my-builds"]`, About: "a silent session was nudged",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.h.OnNudge = c.hook(k, v)
		}},
	{Table: "hooks", Name: "on_block", Type: "array of strings", Example: `["/home/me/bin/tell-slack"]`, About: "a task was blocked",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.h.OnBlock = c.hook(k, v)
		}},
	{Table: "hooks", Name: "on_permission", Type: "array of strings", Example: `["notify-send", "Build Station", "needs you"]`, About: "a dialog waits for a person",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.h.OnPermission = c.hook(k, v)
		}},
	{Table: "hooks", Name: "on_done", Type: "array of strings", Example: `["/home/me/bin/tell-slack", "done"]`, About: "a task is done",
		read: func(c *checker, d dst, k keyPath, v any) {
			d.h.OnDone = c.hook(k, v)
		}},
	{Table: "hooks", Name: "timeout", Type: "duration", Default: `"30s"`, About: "a hook still running then is killed",
		read: into((*checker).duration, func(d dst) *time.Duration { return &d.h.Timeout })},
}

// declared reports whether Keys has name in table, or, at the top level,
// whether name is a table's. A key is read by its declaration (Key.read),
// so one missing from Keys is refused as unknown.
func declared(table, name string) bool {
	for _, k := range Keys {
		if k.Table == table && k.Name == name {
			return true
		}
	}
	if table == "" {
		for _, t := range Tables[1:] {
			if root, _, _ := strings.Cut(t.Name, "."); root == name {
				return true
			}
		}
	}
	return false
}

// keysOf are the names of table's keys, in declaration order.
func keysOf(table string) []string {
	var out []string
	for _, k := range Keys {
		if k.Table == table {
			out = append(out, k.Name)
		}
	}
	return out
}

// keysWhere are the names of the keys f accepts.
func keysWhere(f func(Key) bool) []string {
	var out []string
	for _, k := range Keys {
		if f(k) {
			out = append(out, k.Name)
		}
	}
	return out
}

// settingKeys may appear in [defaults] and in any [[projects]] table.
var settingKeys = keysWhere(func(k Key) bool { return k.Setting })

// EditableKeys are the per-project overrides a person may change from the
// tray; every other key is edited by hand.
var EditableKeys = keysWhere(func(k Key) bool { return k.Editable })

// ProjectKeys are every key `project set` takes: a [[projects]] table's
// own keys but its name, and each [defaults] key a project may override.
var ProjectKeys = keysWhere(func(k Key) bool { return (k.Table == "projects" && k.Name != "name") || k.Setting })

// declaredDefaults are the declared defaults of each table's keys (table →
// key → value), decoded as the file's own TOML would be: the checker
// applies them before what the file writes, Edit project shows a project
// key's, and the code that needs one without a config.toml reads it with
// declaredAs. A default is written once, here. Decoded at first use, not
// at start: a command line verb that reads no config pays nothing.
var declaredDefaults = sync.OnceValue(func() map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, k := range Keys {
		if k.Default == "" {
			continue
		}
		if out[k.Table] == nil {
			out[k.Table] = map[string]any{}
		}
		out[k.Table][k.Name] = k.declared()
	}
	return out
})

// declared is k's declared default decoded as TOML; nil when it has none.
func (k Key) declared() any {
	if k.Default == "" {
		return nil
	}
	// A plain basic string ("2m") is its content, as TOML reads it,
	// without the decoder.
	if d := k.Default; len(d) >= 2 && d[0] == '"' && d[len(d)-1] == '"' && !strings.ContainsAny(d[1:len(d)-1], "\\\"\n") {
		return d[1 : len(d)-1]
	}
	var m map[string]any
	if err := toml.Unmarshal([]byte("v = "+k.Default), &m); err != nil {
		panic(fmt.Sprintf("config: %s.%s's declared default %s is not TOML: %v", k.Table, k.Name, k.Default, err))
	}
	return m["v"]
}

// declaredAs is table's key name's declared default, read as the checker
// reads the file's (read is one of its readers, like (*checker).duration).
// It decodes that key's alone: the package-level defaults use it at start.
func declaredAs[T any](table, name string, read func(*checker, keyPath, any) (T, bool)) T {
	var d any
	for _, k := range Keys {
		if k.Table == table && k.Name == name {
			d = k.declared()
		}
	}
	v, ok := read(&checker{}, keyPath{}.with(name), d)
	if !ok {
		panic(fmt.Sprintf("config: %s.%s has no declared default of its type", table, name))
	}
	return v
}

// projectKeyType is the declared type of a project key ("" when none).
func projectKeyType(name string) string {
	for _, k := range Keys {
		if k.Name == name && (k.Table == "projects" || k.Setting) {
			return k.Type
		}
	}
	return ""
}

// topLevel says what may appear at the top of the file: its keys and tables.
func topLevel() string {
	names := keysOf("")
	for _, t := range Tables[1:] {
		names = append(names, t.written())
	}
	return strings.Join(names, ", ")
}

// written is how t's header is written in general: "[agents.NAME]".
func (t Table) written() string {
	if t.Array {
		return "[[" + t.Name + "]]"
	}
	return "[" + t.Name + "]"
}

// about is k.About with the registries' names filled in.
func (k Key) about() string { return fillNames(k.About) }

// fillNames fills @builtins@, @profiles@ and @placeholders@ from the agent
// registry and the nudge's placeholders.
func fillNames(s string) string {
	var quoted, placeholders []string
	for _, name := range agent.ProfileNames(false) {
		quoted = append(quoted, `"`+name+`"`)
	}
	for _, p := range agent.NudgePlaceholders {
		placeholders = append(placeholders, p.Name+" ("+p.About+")")
	}
	return strings.NewReplacer(
		"@builtins@", strings.Join(agent.ProfileNames(true), ", "),
		"@profiles@", strings.Join(quoted, ", "),
		"@placeholders@", "the text typed into a quiet session; it may use "+strings.Join(placeholders, ", "),
	).Replace(s)
}

// quoteTOML writes s as a TOML basic string.
func quoteTOML(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(s) + `"`
}

// Reference is the key reference of docs/configuration.md, made from Tables
// and Keys; internal/checks/architecture's TestConfigurationPageIsGenerated fails
// when the page is not it (and -update writes it).
func Reference() string {
	cell := strings.NewReplacer("|", `\|`, "\n", " ").Replace
	var b strings.Builder
	for _, t := range Tables {
		title := "Top level"
		if t.Name != "" {
			title = "`" + t.written() + "`"
		}
		fmt.Fprintf(&b, "\n### %s\n\n", title)
		if t.Name != "" {
			b.WriteString(strings.ReplaceAll(fillNames(t.Intro), "\n", " ") + "\n\n")
		}
		b.WriteString("| Key | Type | Default | What it does |\n|---|---|---|---|\n")
		for _, k := range Keys {
			if k.Table != t.Name {
				continue
			}
			def := "none"
			if k.Default != "" {
				def = "`" + cell(k.Default) + "`"
			}
			if k.Example != "" {
				def += ", e.g. `" + cell(k.Example) + "`"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k.Name, cell(k.Type), def, cell(k.about()))
		}
	}
	return b.String()
}
