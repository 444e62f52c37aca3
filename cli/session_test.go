//go:build !windows

package cli_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// agentScript is the agent of startSessions' sessions, a real process in
// the station's pty: it writes its session id and token to $0/id, then
// what is typed to it to $0/typed.
const agentScript = `printf '%s %s\n' "$BUILDSTATION_SESSION_ID" "$BUILDSTATION_TOKEN" > "$0/id.tmp" && mv "$0/id.tmp" "$0/id"; exec cat > "$0/typed"`

// startSessions is startBoard with the station running: each task added
// starts a session of agentScript, whose files go to dir.
func startSessions(t *testing.T) (s *station, dir string) {
	t.Helper()
	dir = t.TempDir()
	env := apitest.Sessions(t, []string{"sh", "-c", agentScript, dir}, "web")
	return &station{home: serve(t, apitest.Areas(env.Station)), board: env.Board}, dir
}

// session waits for the session agentScript started to say its id and
// token, and removes what it said for the next one.
func session(t *testing.T, dir string) (id, token string) {
	t.Helper()
	var f []string
	testwait.Eventually(t, 30*time.Second, func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "id"))
		f = strings.Fields(string(b))
		return err == nil && len(f) == 2
	}, "the session to start")
	if err := os.Remove(filepath.Join(dir, "id")); err != nil {
		t.Fatal(err)
	}
	return f[0], f[1]
}

func typed(dir string) string {
	b, _ := os.ReadFile(filepath.Join(dir, "typed"))
	return string(b)
}

func TestSessionLs(t *testing.T) {
	s, dir := startSessions(t)
	if out := s.ok(t, "session", "ls", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("no sessions: %q, want []", out)
	}
	s.addTask(t, "one")
	id, _ := session(t, dir)
	// The agent can say its id before the station has recorded the
	// process it started (the session is "starting", no pid yet): wait
	// for the record, as a person running ls again would.
	var list []json.RawMessage
	var info supervisor.SessionInfo
	testwait.Eventually(t, 30*time.Second, func() bool {
		list = nil
		if err := json.Unmarshal([]byte(s.ok(t, "session", "ls", "--json")), &list); err != nil || len(list) != 1 {
			t.Fatalf("session ls --json: %v, %d sessions", err, len(list))
		}
		info = supervisor.SessionInfo{}
		return json.Unmarshal(list[0], &info) == nil && info.PID != 0
	}, "session ls to show the session's pid")
	wantKeys(t, "session", list[0], "id", "task_id", "state", "pid", "last_output_at")
	if info.ID != id || info.TaskID != "t1" {
		t.Fatalf("session %+v; want %s of t1 with its pid", info, id)
	}
	if !strings.Contains(string(list[0]), `"state": "`+info.State.String()+`"`) {
		t.Errorf("state not by name: %s", list[0])
	}
	out := s.ok(t, "session", "ls")
	for _, want := range []string{"SILENT FOR", "NEXT", id, info.State.String(), itoa(info.PID)} {
		if !strings.Contains(out, want) {
			t.Errorf("session ls lacks %q:\n%s", want, out)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// session send types the text into the agent, then Enter.
func TestSessionSend(t *testing.T) {
	s, dir := startSessions(t)
	s.addTask(t, "one")
	id, _ := session(t, dir)
	s.ok(t, "session", "send", id, "please", "commit")
	testwait.Eventually(t, 30*time.Second, func() bool { return strings.Contains(typed(dir), "please commit\n") },
		"the agent to read the text sent", testwait.Later(func() string { return "typed: " + typed(dir) }))
}

// The agent's commands reach the station as its session: progress and
// status are taken, complete settles the task done with its summary, and
// block blocks the next one with its reason.
func TestAgentCommands(t *testing.T) {
	s, dir := startSessions(t)
	s.addTask(t, "one")
	id, tok := session(t, dir)
	sf, err := apitype.ReadStationFile(s.home)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("BUILDSTATION_URL", sf.URL)
	t.Setenv("BUILDSTATION_TOKEN", tok)
	t.Setenv("BUILDSTATION_SESSION_ID", id)
	for _, args := range [][]string{
		{"agent", "progress", "tests", "pass"},
		{"agent", "status", "working"},
		{"agent", "complete", "--summary", "did it"},
	} {
		if r := run(t, "", args...); r.code != 0 {
			t.Fatalf("%v: %d %q", args, r.code, r.stderr)
		}
	}
	var done supervisor.Task
	if err := json.Unmarshal([]byte(s.ok(t, "task", "ls", "--json")), &[]*supervisor.Task{&done}); err != nil ||
		done.State != supervisor.TaskDone || done.Summary != "did it" {
		t.Fatalf("after complete: %+v (%v); want t1 done with its summary", done, err)
	}

	s.addTask(t, "two")
	id, tok = session(t, dir)
	t.Setenv("BUILDSTATION_TOKEN", tok)
	t.Setenv("BUILDSTATION_SESSION_ID", id)
	if r := run(t, "", "agent", "block", "--reason", "need a key"); r.code != 0 {
		t.Fatalf("agent block: %d %q", r.code, r.stderr)
	}
	var two supervisor.Task
	if err := json.Unmarshal([]byte(s.ok(t, "task", "show", "t2", "--json")), &two); err != nil ||
		two.State != supervisor.TaskBlocked || !strings.Contains(two.Reason, "need a key") {
		t.Fatalf("after block: %+v (%v); want t2 blocked with its reason", two, err)
	}

	t.Setenv("BUILDSTATION_TOKEN", "")
	r := run(t, "", "agent", "progress", "x")
	if r.code != 1 || r.stderr != "buildstation: BUILDSTATION_TOKEN is not set; run this from inside a Build Station session\n" {
		t.Errorf("no token: %d %q", r.code, r.stderr)
	}
}

// Without a terminal, attach copies stdin in and output out until the
// session ends.
func TestSessionAttachPiped(t *testing.T) {
	s, dir := startSessions(t)
	s.addTask(t, "one")
	id, _ := session(t, dir)
	type ret struct {
		code int
		err  string
	}
	done := make(chan ret, 1)
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	go func() {
		code := cli.Run(t.Context(), wired, []string{"--home", s.home, "session", "attach", id}, strings.NewReader("typed by a person\n"), outW, &errb)
		outW.Close()
		done <- ret{code: code, err: errb.String()}
	}()
	var seen testwait.Buffer
	go io.Copy(&seen, outR)
	testwait.Eventually(t, 30*time.Second, func() bool { return strings.Contains(typed(dir), "typed by a person\n") },
		"the agent to read what was typed in the console", testwait.Later(func() string { return "typed: " + typed(dir) }))
	// The terminal echoes what the agent reads: the console shows it.
	testwait.Eventually(t, 30*time.Second, func() bool { return strings.Contains(seen.String(), "typed by a person") },
		"the console to show the echo", testwait.Later(func() string { return "console: " + seen.String() }))
	s.ok(t, "task", "cancel", "t1") // ends the session
	r := recv(t, done)
	if r.code != 0 || r.err != "session "+id+" ended\n" {
		t.Errorf("attach: exit %d stderr %q", r.code, r.err)
	}
}
