//go:build linux

package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
)

// station is the shared harness's station with what the Claude tests add:
// tasks whose body is a prompt, the log file, and failure stories that hold
// the stand-in API's requests.
type station struct {
	*e2erig.Station
}

// startStation writes config.toml in a fresh home, runs the daemon on it and
// waits for its API.
func startStation(t *testing.T, config string) *station {
	t.Helper()
	home := e2erig.WriteConfig(t, config)
	return &station{e2erig.Start(t, e2erig.Bin(), home, stationEnv(home))}
}

// stationEnv is the station's environment: the test's own, without anything
// that would point Claude Code at a real account or another config; the
// session gets its wiring from [agents.claude] env in config.toml.
func stationEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "CLAUDE") || strings.HasPrefix(k, "BUILDSTATION_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "BUILDSTATION_HOME="+home)
}

// addTask adds a task whose body is the prompt Claude Code gets.
func (s *station) addTask(project, title, body string) string {
	s.T.Helper()
	var t e2erig.Task
	s.MustJSON(&t, "task", "add", "--project", project, "--title", title, "--body", body, "--json")
	return t.ID
}

// log is the station's log file (the daemon also copies it to stderr).
func (s *station) log() string {
	b, _ := os.ReadFile(filepath.Join(s.Home, "logs", "station.log"))
	return string(b)
}

// until waits for cond (the CLI is what a script would poll; the station
// itself never polls) and fails with the whole story after d.
func (s *station) until(what string, d time.Duration, api *fakeAPI, taskID string, cond func() bool) {
	s.T.Helper()
	e2erig.Eventually(s.T, d, cond, what, e2erig.Later(func() string { return s.story(api, taskID) }))
}

// story is everything a failure report needs: the station log, the API's
// requests and the session's screen as plain text.
func (s *station) story(api *fakeAPI, taskID string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- station log\n%s", s.log())
	if api != nil {
		fmt.Fprintf(&b, "--- API requests\n%s", api.dump())
	}
	fmt.Fprintf(&b, "--- transcript (ANSI stripped, tail)\n%s\n", e2erig.Tail(screenText(s.Transcript(taskID, 1)), 4000))
	return b.String()
}
