package config

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// Source is one [[sources]] entry: a GitHub repository or a Linear team
// whose matching open issues become tasks of Project (docs/sources.md).
// Tokens never live here: the OS keychain keeps them (`buildstation
// source login`), or TokenEnv names the variable that holds one.
type Source struct {
	Kind     string // kind: "github" or "linear"
	Project  string // project: the [[projects]] name its tasks go to
	Repo     string // repo: "owner/name" (github)
	Team     string // team: the team's key, like "ENG" (linear)
	Label    string // label: only issues with this label (default "agent")
	State    string // state: linear only, the workflow state to import from (default "Todo")
	APIURL   string // api_url: GitHub Enterprise Server, a stand-in in tests; "" = the service's own
	TokenEnv string // token_env: read the token from this variable instead of the keychain
	// Poll is the time between two polls (poll; 0: a minute). Less than a
	// minute only for an api_url on loopback, a stand-in: a team's rate
	// limit is shared with its people and its CI.
	Poll time.Duration
}

// Source kinds: the vocabulary's, which the dashboard reads too.
const (
	SourceGitHub = supervisor.KindGitHub
	SourceLinear = supervisor.KindLinear
)

// Name is how status and `source ls` name s: "github acme/web", "linear ENG".
func (s Source) Name() string {
	if s.Kind == SourceLinear {
		return s.Kind + " " + s.Team
	}
	return s.Kind + " " + s.Repo
}

var (
	repoRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`) })
	envVarRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
)

var sourceKeys = strings.Join(keysOf("sources"), ", ")

// sources reads [[sources]]; projects are read already, so a source's
// project is checked against them.
func (c *checker) sources(cfg *Config, key keyPath, v any) {
	list, ok := c.tables(key, v)
	if !ok {
		return
	}
	seen := map[string]int{}
	for i, t := range list {
		sk := key.at(i)
		s := c.source(sk, t)
		if _, ok := t["project"]; ok && s.Project != "" {
			if _, ok := cfg.Project(s.Project); !ok {
				c.fail(sk.with("project"), nil, fmt.Sprintf("%q is not a project", s.Project), "name one of the [[projects]] entries")
			}
		}
		id := s.Name() + " → " + s.Project
		if j, dup := seen[id]; dup && s.Kind != "" {
			c.fail(sk, nil, fmt.Sprintf("imports what sources[%d] imports already", j), "remove one of the two")
		}
		seen[id] = i
		cfg.Sources = append(cfg.Sources, s)
	}
}

// source reads one [[sources]] table.
func (c *checker) source(sk keyPath, t map[string]any) Source {
	s := Source{Label: "agent"}
	for _, k := range sortedKeys(t) {
		if !c.readKey("sources", k, dst{src: &s}, sk.with(k), t[k]) {
			c.unknown(sk.with(k), sourceKeys)
		}
	}
	c.sourceComplete(sk, t, &s)
	return s
}

// sourceComplete reports what a source must have and lacks, and keys of
// the other kind.
func (c *checker) sourceComplete(sk keyPath, t map[string]any, s *Source) {
	if _, ok := t["kind"]; !ok {
		c.fail(sk.with("kind"), nil, "is missing", `add kind = "github" or kind = "linear"`)
	}
	if _, ok := t["project"]; !ok {
		c.fail(sk.with("project"), nil, "is missing", `add project = "…", the project its tasks go to`)
	}
	if s.Poll > 0 && s.Poll < time.Minute && !loopbackURL(s.APIURL) {
		c.fail(sk.with("poll"), nil, fmt.Sprintf("%s is less than a minute", s.Poll),
			`poll at most once a minute, like poll = "1m": the rate limit is shared with your team and its CI (only a stand-in on a loopback api_url may be polled more often)`)
	}
	_, repo := t["repo"]
	_, team := t["team"]
	_, state := t["state"]
	switch s.Kind {
	case SourceGitHub:
		if !repo {
			c.fail(sk.with("repo"), nil, "is missing", `add repo = "owner/name"`)
		}
		if team {
			c.fail(sk.with("team"), nil, "is for linear sources", `a github source names its repository with repo = "owner/name"`)
		}
		if state {
			c.fail(sk.with("state"), nil, "is for linear sources", "a github source imports open issues; remove state")
		}
	case SourceLinear:
		if !team || strings.TrimSpace(s.Team) == "" {
			c.fail(sk.with("team"), nil, "is missing", `add team = "ENG", the team's key`)
		}
		if repo {
			c.fail(sk.with("repo"), nil, "is for github sources", `a linear source names its team with team = "ENG"`)
		}
		if s.State == "" {
			s.State = "Todo"
		}
	}
	if _, ok := t["label"]; ok && strings.TrimSpace(s.Label) == "" {
		c.fail(sk.with("label"), nil, "is empty", "name the label that marks issues for agents, like label = \"agent\"; every issue would be imported otherwise")
	}
}

// loopback reports whether host is this machine (a stand-in in tests).
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// apiURL reads an api_url: an absolute http or https URL.
// loopbackURL reports whether s is a URL on a loopback address.
func loopbackURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && s != "" && loopback(u.Hostname())
}

func (c *checker) apiURL(key keyPath, v any) string {
	s, ok := c.str(key, v)
	if !ok {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		c.fail(key, err, fmt.Sprintf("%q is not an http(s) URL", s), `write the API's address, like api_url = "https://ghe.example.com/api/v3"`)
		return ""
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		// The token would cross the network in plain text.
		c.fail(key, nil, fmt.Sprintf("%q would send the token in plain text", s), `use https, like api_url = "https://ghe.example.com/api/v3" (plain http is taken only for a loopback address)`)
		return ""
	}
	return strings.TrimRight(s, "/")
}
