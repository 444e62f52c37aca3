package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/buildstation/buildstation/supervisor/agent"
)

// checker turns the decoded TOML tree into a Config, checking it against the
// schema in docs/contract.md as it goes.
//
// Unknown keys are found here, against the schema (Keys), rather than by
// decoding into structs: a decoder that matches fields without regard to
// case would take "Idle_Window" silently, and would not say which
// [[projects]] entry a bad key is in. Problems are collected with
// their lines, not returned at once, because Go map order is not file order;
// first reports the earliest.
type checker struct {
	path  string  // the config file, for messages
	dir   string  // absolute folder relative project paths resolve against
	lines locator // where each key is written
	errs  []*Error
	// shared is set when board names a shared board: a project folder may
	// then be missing on this machine (another station runs it).
	shared bool
	plat   Platform // the machine's defaults
}

func (c *checker) fail(key keyPath, err error, problem, fix string) {
	c.errs = append(c.errs, &Error{Path: c.path, Line: c.lines.line(key), Key: key.String(),
		Problem: problem, Fix: fix, Err: err})
}

// first returns the problem nearest the top of the file, or nil.
func (c *checker) first() error {
	if len(c.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(c.errs, func(a, b *Error) int { return cmp.Compare(a.Line, b.Line) })
	return c.errs[0]
}

func (c *checker) unknown(key keyPath, allowed string) {
	c.fail(key, nil, "unknown key", "allowed here: "+allowed+" (keys are case-sensitive)")
}

func (c *checker) config(tree map[string]any) *Config {
	cfg := &Config{Path: c.path, Platform: c.plat, Agents: builtinAgents(), Prices: defaultPrices()}
	c.applyDefaults(cfg)
	if b, ok := tree["board"].(string); ok && b != "" {
		c.shared = true
	}
	// Agents first: [defaults] and [[projects]] refer to them by name.
	if v, ok := tree["agents"]; ok {
		c.agents(cfg, keyPath{}.with("agents"), v)
	}
	for _, name := range sortedKeys(tree) {
		key, v := keyPath{}.with(name), tree[name]
		if !declared("", name) {
			c.unknown(key, topLevel())
			continue
		}
		switch name {
		case "defaults":
			if t, ok := c.table(key, v, "[defaults]"); ok {
				for _, k := range sortedKeys(t) {
					if !c.setting(&cfg.Defaults, key.with(k), k, t[k], cfg.Agents) {
						c.unknown(key.with(k), strings.Join(settingKeys, ", "))
					}
				}
			}
		case "agents": // done above
		case "projects":
			c.projects(cfg, key, v)
		case "hooks":
			c.hooks(&cfg.Hooks, key, v)
		case "phone":
			c.phone(&cfg.Phone, key, v)
		case "sources": // after projects, below: a source names one
		case "prices":
			c.prices(cfg, key, v)
		default:
			c.topKey(cfg, key, name, v)
		}
	}
	if v, ok := tree["sources"]; ok {
		c.sources(cfg, keyPath{}.with("sources"), v)
	}
	return cfg
}

// applyDefaults sets every top-level, [defaults] and [hooks] key to its
// declared default (Keys), before the file's own values are read over
// them; the backend is the machine's (Platform).
func (c *checker) applyDefaults(cfg *Config) {
	for name, v := range declaredDefaults()[""] {
		c.topKey(cfg, keyPath{}.with(name), name, v)
	}
	for name, v := range declaredDefaults()["defaults"] {
		c.setting(&cfg.Defaults, keyPath{}.with("defaults").with(name), name, v, cfg.Agents)
	}
	cfg.Defaults.Backend = c.plat.backend()
	for name, v := range declaredDefaults()["hooks"] {
		c.hookKey(&cfg.Hooks, keyPath{}.with("hooks").with(name), name, v)
	}
}

// topKey reads one top-level key (not a table).
func (c *checker) topKey(cfg *Config, key keyPath, name string, v any) {
	if !c.readKey("", name, dst{cfg: cfg}, key, v) {
		c.unknown(key, topLevel())
	}
}

// setting applies one setting to s and reports whether name is a setting.
func (c *checker) setting(s *Settings, key keyPath, name string, v any, agents map[string]Agent) bool {
	return c.readKey("defaults", name, dst{s: s, agents: agents}, key, v)
}

// hooks reads [hooks]: each on_* is a program and its arguments.
func (c *checker) hooks(h *Hooks, key keyPath, v any) {
	t, ok := c.table(key, v, "[hooks]")
	if !ok {
		return
	}
	for _, k := range sortedKeys(t) {
		c.hookKey(h, key.with(k), k, t[k])
	}
}

// hookKey reads one [hooks] key.
func (c *checker) hookKey(h *Hooks, kk keyPath, k string, v any) {
	if !c.readKey("hooks", k, dst{h: h}, kk, v) {
		c.unknown(kk, strings.Join(keysOf("hooks"), ", "))
	}
}

// hook reads a hook: a program and its arguments.
func (c *checker) hook(kk keyPath, v any) []string {
	argv, ok := c.strings(kk, v)
	if !ok {
		return nil
	}
	if len(argv) == 0 || strings.TrimSpace(argv[0]) == "" {
		c.fail(kk, nil, "is empty", `name the program to run and its arguments, like ["ntfy", "publish", "mytopic"], or remove the line`)
		return nil
	}
	return argv
}

func (c *checker) breaker(key keyPath, v any) (Breaker, bool) {
	if n, ok := v.(int64); ok && n == 0 {
		return Breaker{}, true
	}
	s, ok := c.str(key, v)
	if !ok {
		return Breaker{}, false
	}
	b, err := parseBreaker(s)
	if err != nil {
		c.fail(key, err, err.Error(), breakerFix)
		return Breaker{}, false
	}
	return b, true
}

func (c *checker) agents(cfg *Config, key keyPath, v any) {
	t, ok := c.table(key, v, "[agents.NAME] tables")
	if !ok {
		return
	}
	for _, name := range sortedKeys(t) {
		ak := key.with(name)
		at, ok := c.table(ak, t[name], fmt.Sprintf("an [agents.%s] table", name))
		if !ok {
			continue
		}
		// A built-in keeps what the table does not override.
		a, builtin := cfg.Agents[name]
		if !builtin {
			a = Agent{Name: name, Profile: "generic"}
		}
		for _, k := range sortedKeys(at) {
			if !c.readKey("agents.NAME", k, dst{a: &a}, ak.with(k), at[k]) {
				c.unknown(ak.with(k), strings.Join(keysOf("agents.NAME"), ", "))
			}
		}
		if len(a.Command) == 0 || a.Command[0] == "" {
			c.fail(ak.with("command"), nil, "is empty", `name the program to run, like command = ["claude"]`)
		}
		cfg.Agents[name] = a
	}
}

func (c *checker) env(key keyPath, v any) map[string]string {
	t, ok := c.table(key, v, "a table of strings")
	if !ok {
		return nil
	}
	env := make(map[string]string, len(t))
	for _, k := range sortedKeys(t) {
		if s, ok := c.str(key.with(k), t[k]); ok {
			env[k] = s
		}
	}
	return env
}

func (c *checker) projects(cfg *Config, key keyPath, v any) {
	list, ok := c.tables(key, v)
	if !ok {
		return
	}
	seen := map[string]int{}
	for i, t := range list {
		pk := key.at(i)
		p := c.project(cfg, pk, t)
		if p.Name != "" {
			if j, dup := seen[p.Name]; dup {
				c.fail(pk.with("name"), nil, fmt.Sprintf("%q is already the name of projects[%d]", p.Name, j),
					"give each project its own name")
			}
			seen[p.Name] = i
		}
		cfg.Projects = append(cfg.Projects, p)
	}
}

// project reads one [[projects]] table: its own keys, any setting it
// overrides, and the defaults for what it leaves out.
func (c *checker) project(cfg *Config, pk keyPath, t map[string]any) Project {
	p := Project{Settings: cfg.Defaults}
	for k, v := range declaredDefaults()["projects"] {
		c.projectKey(&p, pk.with(k), k, v)
	}
	if c.shared {
		// Another station may take a requeued task: its branches must be
		// where that station can fetch them.
		p.Remote, p.RemoteAuto = DefaultRemote, true
	}
	// Keys are visited sorted, so Overrides comes out sorted.
	for _, k := range sortedKeys(t) {
		kk, v := pk.with(k), t[k]
		if k != "name" {
			if p.Written == nil {
				p.Written = map[string]string{}
			}
			p.Written[k] = writtenValue(v)
		}
		if c.setting(&p.Settings, kk, k, v, cfg.Agents) {
			p.Overrides = append(p.Overrides, k)
			continue
		}
		c.projectKey(&p, kk, k, v)
	}
	c.projectComplete(pk, t, p)
	p.Agent = p.Settings.Agent
	switch worktreeRoot := p.WorktreeRoot; {
	case worktreeRoot == "":
		p.WorktreeRoot = filepath.Join(p.Path, ".buildstation", "worktrees")
	case filepath.IsAbs(worktreeRoot):
		p.WorktreeRoot = filepath.Clean(worktreeRoot)
	default:
		p.WorktreeRoot = filepath.Join(p.Path, worktreeRoot)
	}
	return p
}

// projectKey reads one of a project's own keys (not a setting).
func (c *checker) projectKey(p *Project, kk keyPath, k string, v any) {
	if !c.readKey("projects", k, dst{p: p}, kk, v) {
		c.unknown(kk, strings.Join(append(keysOf("projects"), settingKeys...), ", "))
	}
}

// projectComplete reports what a project table must have and lacks, and
// keys that contradict each other.
func (c *checker) projectComplete(pk keyPath, t map[string]any, p Project) {
	if _, ok := t["name"]; !ok {
		c.fail(pk.with("name"), nil, "is missing", `add name = "…", the name tasks use for this project`)
	} else if p.Name == "" {
		c.fail(pk.with("name"), nil, "is empty", "name the project; tasks refer to it by name")
	}
	if _, ok := t["path"]; !ok {
		c.fail(pk.with("path"), nil, "is missing", `add path = "…", the project's folder`)
	}
	if _, agent := t["agent"]; agent && len(p.Command) > 0 {
		// One would silently win; say so instead of guessing.
		c.fail(pk.with("command"), nil, "is set together with agent",
			`keep one: agent = "NAME" runs a configured agent, command = [...] runs a program of your own`)
	}
}

// DefaultRemote is the remote a project on a shared board pushes its task
// branches to when config.toml names none and the repository has it.
const DefaultRemote = "origin"

// remote reads a project's remote: a git remote's name, or "" or "off" for
// none. A name git could take for an option or a path is refused.
func (c *checker) remote(key keyPath, v any) string {
	s, ok := c.str(key, v)
	if !ok || s == "" || s == "off" {
		return ""
	}
	if strings.HasPrefix(s, "-") || strings.ContainsAny(s, " \t\n:/\\") || s == "." || s == ".." {
		c.fail(key, nil, fmt.Sprintf("%q is not the name of a git remote", s),
			`name one of the repository's remotes (git remote -v), like remote = "origin", or write remote = "off"`)
		return ""
	}
	return s
}

// folder resolves a project path: "~/" is the user's home, and a relative
// path is taken from the config file's folder, so a config kept beside its
// projects can move with them. It must name an existing directory, except
// on a shared board, where a project may live on other stations only.
func (c *checker) folder(key keyPath, s string) string {
	if s == "" {
		c.fail(key, nil, "is empty", "set it to the project's folder")
		return ""
	}
	p := s
	if rest, ok := cutHome(s); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			c.fail(key, err, fmt.Sprintf("%q starts with ~ but the home folder is unknown", s), "write the full path")
			return ""
		}
		p = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(c.dir, p)
	}
	p = filepath.Clean(p)
	shown := fmt.Sprintf("%q", s)
	if p != s {
		shown += " (" + p + ")"
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist) && c.shared:
		// Another station runs it; this one skips it (see supervisor).
	case errors.Is(err, fs.ErrNotExist):
		c.fail(key, err, shown+" does not exist", "create the folder or fix the path")
	case err != nil:
		c.fail(key, err, fmt.Sprintf("%s cannot be read: %v", shown, err), "check the path and its permissions")
	case !fi.IsDir():
		c.fail(key, nil, shown+" is not a directory", "point path at the project's folder")
	}
	return p
}

func cutHome(s string) (string, bool) {
	if s == "~" {
		return "", true
	}
	if rest, ok := strings.CutPrefix(s, "~/"); ok {
		return rest, true
	}
	return strings.CutPrefix(s, `~`+string(filepath.Separator))
}

// unknownPlaceholder is the first {word} in a nudge that is not one of
// agent.NudgePlaceholders, or "". Braces around anything but a plain word (JSON,
// "{ }") are text, not placeholders.
func unknownPlaceholder(s string) string {
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			return ""
		}
		s = s[i:]
		j := strings.IndexByte(s, '}')
		if j < 0 {
			return ""
		}
		word := s[:j+1]
		if isWord(word[1:j]) && !slices.Contains(agent.PlaceholderNames(), word) {
			return word
		}
		s = s[1:]
	}
}

func isWord(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) < 0
}
