//go:build linux

package station_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// sessionFilesAgent is a shell-script agent that writes down what it was
// given: its whole environment, its prompt file's path, the modes of that
// file and its folder, and the prompt itself (proof it can read it), each
// file written aside and renamed, so the test never reads one half-written.
// Then it completes its task, or with "wait" as its argument runs on.
const sessionFilesAgent = `out=%q
env > "$out/env.tmp" && mv "$out/env.tmp" "$out/env"
printf '%%s' "$BUILDSTATION_PROMPT_FILE" > "$out/path.tmp" && mv "$out/path.tmp" "$out/path"
stat -c %%a "$BUILDSTATION_PROMPT_FILE" > "$out/mode.tmp" && mv "$out/mode.tmp" "$out/mode"
stat -c %%a "$(dirname "$BUILDSTATION_PROMPT_FILE")" > "$out/dirmode.tmp" && mv "$out/dirmode.tmp" "$out/dirmode"
cat "$BUILDSTATION_PROMPT_FILE" > "$out/prompt.tmp" && mv "$out/prompt.tmp" "$out/prompt"
if [ "$1" = wait ]; then
	while :; do sleep 1; done
fi
buildstation agent complete --summary "read my prompt"
`

func sessionFilesStation(t *testing.T, mode string) (s *rig.Station, out, cache string) {
	t.Helper()
	out, cache = t.TempDir(), t.TempDir()
	script := filepath.Join(t.TempDir(), "agent.sh")
	writeFile(t, script, fmt.Sprintf(sessionFilesAgent, out))
	home := rig.WriteConfig(t, fmt.Sprintf("\n[[projects]]\nname = \"web\"\npath = %q\ncommand = [\"/bin/sh\", %q, %q]\nidle_window = \"30s\"\nblock_window = \"30s\"\n",
		t.TempDir(), script, mode))
	// The user's cache folder is the test's own, so what is left there
	// can be seen (and the real one is not touched).
	return rig.StartOn(t, home, "XDG_CACHE_HOME="+cache), out, cache
}

// waitFile waits for a file the agent writes.
func waitFile(t *testing.T, s *rig.Station, path string) string {
	t.Helper()
	var b []byte
	rig.Eventually(t, 30*time.Second, func() (err error) {
		b, err = os.ReadFile(path)
		return err
	}, "the agent to write "+path, "station log:", s.Log)
	return string(b)
}

// An agent runs as the station's user, so a path into the home would lead
// it to the station token. Nothing in its environment points there; its
// prompt file is its own (0600, in a 0700 folder outside the home) and is
// gone when the session ends, while the home keeps the record copy.
func TestSessionEnvironmentStaysOutOfHome(t *testing.T) {
	t.Parallel()
	s, out, cache := sessionFilesStation(t, "complete")
	id := strings.TrimSpace(s.Must("task", "add", "--project", "web", "--title", "look around", "--body", "the body the agent must read"))
	env := waitFile(t, s, filepath.Join(out, "env"))
	for _, line := range strings.Split(env, "\n") {
		if strings.Contains(line, s.Home) {
			t.Errorf("the session's environment points into the home %s: %s", s.Home, line)
		}
	}
	path := waitFile(t, s, filepath.Join(out, "path"))
	if !filepath.IsAbs(path) || strings.HasPrefix(path, s.Home) || !strings.HasPrefix(path, cache+"/") {
		t.Errorf("BUILDSTATION_PROMPT_FILE is %q, want a file under the user's cache folder %s", path, cache)
	}
	if got := strings.TrimSpace(waitFile(t, s, filepath.Join(out, "mode"))); got != "600" {
		t.Errorf("the prompt file's mode is %s, want 600", got)
	}
	if got := strings.TrimSpace(waitFile(t, s, filepath.Join(out, "dirmode"))); got != "700" {
		t.Errorf("the prompt file's folder's mode is %s, want 700", got)
	}
	if prompt := waitFile(t, s, filepath.Join(out, "prompt")); !strings.Contains(prompt, "the body the agent must read") {
		t.Errorf("the agent could not read its task from its prompt file:\n%s", prompt)
	}
	s.WaitState(id, "done", 30*time.Second)
	rig.WaitGone(t, filepath.Dir(path), 30*time.Second)
	if rec := readFile(t, filepath.Join(s.Home, "logs", id+".1.prompt.md")); !strings.Contains(rec, "the body the agent must read") {
		t.Errorf("the home's record copy of the prompt lacks the task:\n%s", rec)
	}
}

// A station killed mid-session leaves the session's folder behind; the
// next station on the home sweeps it.
func TestCrashLeftSessionFilesAreSwept(t *testing.T) {
	t.Parallel()
	s, out, cache := sessionFilesStation(t, "wait")
	s.Must("task", "add", "--project", "web", "--title", "runs on", "--body", "x")
	waitFile(t, s, filepath.Join(out, "prompt")) // the agent is running
	path := waitFile(t, s, filepath.Join(out, "path"))
	s.Kill9()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the prompt file did not outlive the killed station (the test tests nothing): %v", err)
	}
	rig.StartOn(t, s.Home, "XDG_CACHE_HOME="+cache)
	rig.WaitGone(t, filepath.Dir(path), 30*time.Second)
}

// A profile's wiring (Claude Code's --mcp-config and --settings files) is
// in the session's own folder too: no argument the agent gets names the
// home, and the files go with the session.
func TestClaudeWiringStaysOutOfHome(t *testing.T) {
	t.Parallel()
	out, cache := t.TempDir(), t.TempDir()
	script := filepath.Join(t.TempDir(), "claude.sh")
	writeFile(t, script, `printf '%s\n' "$@" > "`+out+`/args.tmp" && mv "`+out+`/args.tmp" "`+out+`/args"
env > "`+out+`/env.tmp" && mv "`+out+`/env.tmp" "`+out+`/env"
buildstation agent complete --summary "wired"
`)
	home := rig.WriteConfig(t, fmt.Sprintf("\n[agents.claude]\ncommand = [\"/bin/sh\", %q]\nprofile = \"claude\"\n\n[[projects]]\nname = \"web\"\npath = %q\nagent = \"claude\"\nidle_window = \"30s\"\nblock_window = \"30s\"\n",
		script, t.TempDir()))
	s := rig.StartOn(t, home, "XDG_CACHE_HOME="+cache)
	id := strings.TrimSpace(s.Must("task", "add", "--project", "web", "--title", "wired", "--body", "x"))
	args := strings.Split(strings.TrimSpace(waitFile(t, s, filepath.Join(out, "args"))), "\n")
	env := waitFile(t, s, filepath.Join(out, "env"))
	var files []string
	for i, a := range args {
		if strings.Contains(a, s.Home) {
			t.Errorf("argument %d names the home: %s", i, a)
		}
		if (a == "--mcp-config" || a == "--settings") && i+1 < len(args) {
			files = append(files, args[i+1])
		}
	}
	for _, line := range strings.Split(env, "\n") {
		if strings.Contains(line, s.Home) {
			t.Errorf("the session's environment points into the home: %s", line)
		}
	}
	if len(files) != 2 {
		t.Fatalf("want --mcp-config and --settings files in %q", args)
	}
	for _, f := range files {
		if !strings.HasPrefix(f, cache+"/") {
			t.Errorf("wiring file %s is not in the session's folder under %s", f, cache)
		}
	}
	s.WaitState(id, "done", 30*time.Second)
	for _, f := range files {
		rig.WaitGone(t, f, 30*time.Second)
	}
}
