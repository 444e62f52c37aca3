package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/agent"
)

// Config is a validated config.toml. Every field holds its effective value,
// defaults filled in, so the rest of the station never re-derives them.
type Config struct {
	Path        string        // file it came from
	MaxSessions int           // max_sessions: sessions at once across all projects
	Board       string        // board: a shared board's URL; "" = station.db in home
	Station     string        // station: this station's name on a shared board; "" = see StationName
	Lease       time.Duration // lease: how long a dead station's claims last
	// StopGrace is stop_grace: how long a stopping station lets its
	// running sessions finish before it ends them.
	StopGrace time.Duration
	// TranscriptMax is transcript_max: the most bytes a session's
	// transcript file keeps; past it the oldest are dropped, with a line
	// saying so.
	TranscriptMax int64
	UpdateCheck   bool             // update_check: the tray asks once a day whether a newer release exists
	Defaults      Settings         // [defaults]
	Agents        map[string]Agent // built-ins claude, codex, gemini, plus [agents.NAME]
	Projects      []Project        // [[projects]], in file order
	Hooks         Hooks            // [hooks]
	Phone         Phone            // [phone]
	Sources       []Source         // [[sources]], in file order
	// Prices is DefaultPrices with the [prices."MODEL"] rows over it.
	Prices map[string]Price
	// Migrated says what Load migrated in config.toml (see migrate), for
	// the log; "" when nothing.
	Migrated string
	// Platform is the machine's defaults the file was read with; a
	// reread of the file (reload, an edit) reads it with the same.
	Platform Platform
}

// Hooks are programs run when the station raises a notice or a task is
// done, with the event as JSON on stdin: the way to reach a chat, ntfy or
// a phone. Each is argv (program and arguments), never a shell line; nil
// runs nothing.
type Hooks struct {
	OnNudge      []string      // on_nudge: a silent session was nudged
	OnBlock      []string      // on_block: a task was blocked
	OnPermission []string      // on_permission: a session waits on a dialog only a person may answer
	OnDone       []string      // on_done: a task is done
	Timeout      time.Duration // timeout: a hook still running then is killed
}

// For is the hook for an event: "nudge", "block", "permission" or "done".
func (h Hooks) For(event string) []string {
	switch event {
	case "nudge":
		return h.OnNudge
	case "block":
		return h.OnBlock
	case "permission":
		return h.OnPermission
	case "done":
		return h.OnDone
	}
	return nil
}

// Settings are the knobs a project may override; see docs/watchdog.md.
type Settings struct {
	Agent            string        // agent: name of an entry in Config.Agents
	Backend          string        // backend: "pty" or "tmux"
	IdleWindow       time.Duration // idle_window: console silence that starts the check
	BlockWindow      time.Duration // block_window: silence after the nudge that blocks
	ReviewIdleWindow time.Duration // review_idle_window: IdleWindow for review sessions (supervisor.SessionKind.Window)
	CPUAlive         float64       // cpu_alive: share of one core (0.10 = "10%") that counts as life
	Breaker          Breaker       // breaker: blocks that pause a project's queue
	Nudge            string        // nudge: text typed into a quiet session
	PermissionMode   string        // permission_mode: "" = the agent's own default
	// DailyBudgetUSD is daily_budget_usd: what the project's sessions may
	// cost in a day before its queue pauses; 0 is no budget.
	DailyBudgetUSD float64
}

// Breaker pauses a project's queue after Count blocks within Within, so a
// broken project does not burn through its whole queue. Count 0 means off.
type Breaker struct {
	Count  int
	Within time.Duration
}

// Agent is an [agents.NAME] table: a command that runs a coding agent,
// and which registered profile (supervisor/agent) wires it.
type Agent = agent.Agent

// Project is one [[projects]] entry with its effective settings. Its
// git side (name, path, gate, base, worktree root, remote) is the
// vocabulary's Repo, which the workspaces take.
type Project struct {
	supervisor.Repo
	Agent   string   // Settings.Agent, repeated for convenience
	Command []string // inline command; wins over Agent, profile "generic"
	Args    []string // appended to the agent's args
	Review  bool     // completed work goes to a review session first
	// ReviewRounds bounds the automatic rounds a pull request's "changes
	// requested", review comments or failing checks may start before the
	// task blocks for a person (review_rounds; its default is declared in Keys).
	ReviewRounds int
	Concurrency  int      // sessions at once for this project, >= 1
	Stations     []string // shared board: stations that may run it; none = any
	Settings     Settings // [defaults] with this project's overrides applied
	Overrides    []string // setting keys this project sets itself, sorted
	// Written are the keys its table sets, but name, each as `project
	// set` takes it ("15m", "aider --yes", "true"): what Edit project
	// shows in its fields.
	Written map[string]string
}

// Load reads home/config.toml. On first run there is none: it writes
// DefaultText there, so the user has a documented file to edit, and loads
// that. An existing file is rewritten once at most, by migrate, when it
// still sets a default an earlier version wrote; Config.Migrated says so.
// plat is the machine's defaults (platform/osdefaults).
func Load(home string, plat Platform) (*Config, error) {
	path := filepath.Join(home, FileConfig)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = writeDefault(home, path, plat)
	}
	if err != nil {
		return nil, fmt.Errorf("load config: %w", err)
	}
	cfg, err := Parse(path, data, plat)
	if err != nil {
		return nil, err
	}
	migrated, done, err := migrate(data)
	if err != nil || len(done) == 0 {
		return cfg, nil //nolint:nilerr // Parse took the file; a file migrate cannot read stays as it is
	}
	mcfg, err := Parse(path, migrated, plat)
	if err == nil {
		err = WriteFile(path, migrated)
	}
	if err != nil {
		cfg.Migrated = fmt.Sprintf("%s still sets defaults an earlier version wrote (%s) and could not be migrated: %v", path, strings.Join(done, ", "), err)
		return cfg, nil
	}
	mcfg.Migrated = fmt.Sprintf("%s: commented out %s, which only repeated a default an earlier version wrote; a changed default now reaches this file", path, strings.Join(done, ", "))
	return mcfg, nil
}

// writeDefault creates path with DefaultText (with plat's example
// paths). O_EXCL keeps a file that
// appeared in the meantime (another process's first run) untouched.
func writeDefault(home, path string, plat Platform) ([]byte, error) {
	text := defaultTextFor(plat)
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("create home: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("create default config: %w", err)
	}
	_, werr := f.WriteString(text)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("write default config: %w", werr)
	}
	return []byte(text), nil
}

// EnvStation names this station on a shared board, over config.toml's
// station key: two stations on one machine (tests, a second home) need two
// names, and the host name is only one.
const EnvStation = "BUILDSTATION_STATION"

// Shared reports whether the board is a team's shared one (PostgreSQL)
// rather than station.db in the home.
func (c *Config) Shared() bool { return c.Board != "" }

// StationName is the name this station acts under on a shared board:
// $BUILDSTATION_STATION, else the station key, else the host name and a
// short hash of the home (host-1a2b3c), so two homes on one machine, or
// two machines that share a host name, do not take each other's name.
func (c *Config) StationName() string {
	if v := strings.TrimSpace(os.Getenv(EnvStation)); v != "" {
		return v
	}
	if c.Station != "" {
		return c.Station
	}
	name, err := os.Hostname()
	if err != nil || name == "" {
		name = "station"
	}
	sum := sha256.Sum256([]byte(c.Home()))
	return name + "-" + hex.EncodeToString(sum[:3])
}

// Home is the folder config.toml is in (the station's home), absolute.
func (c *Config) Home() string {
	dir := filepath.Dir(c.Path)
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// Origin says where this station runs, for a shared board to tell a
// restart of this station (same machine, same home) from another machine
// given the same name.
func (c *Config) Origin() string {
	host, _ := os.Hostname()
	return host + ":" + c.Home()
}

// RunsHere reports whether station may run p's tasks: a project that names
// its stations runs on those alone.
func (p Project) RunsHere(station string) bool {
	return len(p.Stations) == 0 || slices.Contains(p.Stations, station)
}

// Project returns the project called name.
func (c *Config) Project(name string) (Project, bool) {
	for _, p := range c.Projects {
		if p.Name == name {
			return p, true
		}
	}
	return Project{}, false
}

// AgentFor resolves what to run for p: its inline command as a generic
// agent, else its named agent, with p.Args appended. The result is a copy the
// caller may change without touching the Config.
func (c *Config) AgentFor(p Project) (Agent, error) {
	var a Agent
	if len(p.Command) > 0 {
		a = Agent{Command: p.Command, Profile: "generic"}
	} else {
		named, ok := c.Agents[p.Agent]
		if !ok {
			return Agent{}, fmt.Errorf("project %s: agent %q is not configured", p.Name, p.Agent)
		}
		a = named
	}
	a.Command = slices.Clone(a.Command)
	a.Args = append(slices.Clone(a.Args), p.Args...)
	a.Env = maps.Clone(a.Env)
	return a, nil
}

// Parse reads config.toml's text; path names the file in errors and anchors
// relative project paths. It returns the first problem in file order as an
// *Error, and no Config with it, so a bad file is never half-applied.
// plat is the machine's defaults (Platform{} prefers nothing).
func Parse(path string, data []byte, plat Platform) (*Config, error) {
	tree, loc, err := decode(data)
	if err != nil {
		return nil, syntaxError(path, data, err)
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("parse config %s: %w", path, err)
	}
	c := &checker{path: path, dir: dir, lines: loc, plat: plat}
	cfg := c.config(tree)
	if err := c.first(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// decode reads config.toml's text as a tree of TOML values, and where each
// key is written.
func decode(data []byte) (map[string]any, locator, error) {
	var tree map[string]any
	if err := toml.Unmarshal(data, &tree); err != nil {
		return nil, nil, err
	}
	return tree, locate(string(data)), nil
}

// syntaxError locates a TOML syntax error at the line go-toml names, and
// names the key as the checker would: one written on that line (the first
// of a key written twice), else the table the line is in.
func syntaxError(path string, data []byte, err error) error {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return fmt.Errorf("parse config %s: %w", path, err)
	}
	line, _ := de.Position()
	line = max(line, 1)
	lines, table := scan(string(data))
	key := table.String()
	for k, n := range lines {
		if n == line && (len(k) > len(key) || len(k) == len(key) && k > key) {
			key = k
		}
	}
	if key == "" {
		key = "syntax"
	}
	return &Error{Path: path, Line: line, Key: key,
		Problem: "invalid TOML: " + strings.TrimPrefix(de.Error(), "toml: "), Fix: "fix the syntax on this line (see https://toml.io)", Err: err}
}
