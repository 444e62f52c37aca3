//go:build linux

package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
)

// apiKey is what the sessions send the stand-in; any value works, but Claude
// Code asks a person to approve a key from the environment unless
// ~/.claude.json lists it.
const apiKey = "sk-ant-api03-e2e-stand-in-0123456789abcdef"

// nudgeText is the nudge the tests configure, short and easy to find in the
// requests the stand-in receives.
const nudgeText = "E2E nudge: if you have finished, call complete_task with a summary."

// rig is one test's world: a git project, an isolated HOME for Claude Code,
// the stand-in API and a station whose claude agent points at them.
type rig struct {
	*station
	api  *fakeAPI
	repo string
}

type rigOptions struct {
	permissionMode string // the project's permission_mode; "" keeps Claude's own
	window         string // idle_window and block_window
	extra          string // more config.toml, after the project's keys (a [prices] table)
	usage          *apiUsage
}

func newRig(t *testing.T, o rigOptions, script ...turn) *rig {
	t.Helper()
	claude := e2erig.ClaudeBin(t)
	if o.window == "" {
		o.window = "4s"
	}
	repo := e2erig.GitRepo(t)
	home := claudeHome(t, repo)
	api := newFakeAPI(t, script...)
	env := map[string]string{
		"ANTHROPIC_BASE_URL": api.URL(),
		"ANTHROPIC_API_KEY":  apiKey,
		// No telemetry, update checks or other calls to the real service.
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		"DISABLE_AUTOUPDATER":                      "1",
		"HOME":                                     home,
	}
	var envTOML []string
	for k, v := range env {
		envTOML = append(envTOML, fmt.Sprintf("%s = %q", k, v))
	}
	cfg := fmt.Sprintf(`max_sessions = 2
[defaults]
idle_window = %[1]q
block_window = %[1]q
nudge = %[2]q

[agents.claude]
command = [%[3]q]
env = { %[4]s }

[[projects]]
name = "web"
path = %[5]q
agent = "claude"
`, o.window, nudgeText, claude, strings.Join(envTOML, ", "), repo)
	if o.permissionMode != "" {
		cfg += fmt.Sprintf("permission_mode = %q\n", o.permissionMode)
	}
	cfg += o.extra
	api.usage = o.usage
	r := &rig{station: startStation(t, cfg), api: api, repo: repo}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the session's story:\n%s", r.storyAll())
		}
	})
	return r
}

// storyAll tells the story of every task the station ran.
func (r *rig) storyAll() string {
	logs, _ := filepath.Glob(filepath.Join(r.Home, "logs", "*.1.log"))
	var b strings.Builder
	b.WriteString(r.story(r.api, ""))
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		fmt.Fprintf(&b, "--- %s (ANSI stripped, tail)\n%s\n", filepath.Base(l), e2erig.Tail(screenText(string(data)), 6000))
	}
	return b.String()
}

// claudeHome is an isolated HOME whose ~/.claude.json has onboarding done,
// the stand-in's key approved, and the project trusted. The trust covers the
// task worktrees under <project>/.buildstation/worktrees: Claude Code
// inherits it from parent folders.
func claudeHome(t *testing.T, project string) string {
	t.Helper()
	home := t.TempDir()
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		// Claude Code remembers an approved key by its last 20 characters.
		"customApiKeyResponses": map[string]any{"approved": []string{apiKey[len(apiKey)-20:], apiKey}, "rejected": []string{}},
		"projects":              map[string]any{project: map[string]any{"hasTrustDialogAccepted": true}},
	}
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

var ansiRE = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]`)

// screenText is a console transcript as plain text: escape sequences gone,
// cursor moves read as spaces so words stay apart.
func screenText(s string) string {
	s = ansiRE.ReplaceAllString(s, " ")
	s = strings.ReplaceAll(s, "\r", "")
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}
