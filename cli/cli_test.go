package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/testsupport/pgtest"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// TestMain lets the test binary be its sessions' agent (apitest.Agent).
func TestMain(m *testing.M) { apitest.Main(m) }

type station struct {
	home  string
	board supervisor.Board // under the real station
	env   apitest.Env
}

// startBoard runs a real API server on loopback over the real station on
// a real SQLite board (apitest.Board) with project "web", with a home
// folder holding its station.json and token, as a daemon would.
func startBoard(t *testing.T) *station {
	t.Helper()
	env := apitest.NewEnv(t, "web")
	return &station{home: serve(t, apitest.Areas(env.Station)), board: env.Board, env: env}
}

// startAgents is startBoard with the station running: each task added
// starts a session whose agent is this test binary (apitest.Agent); each
// edit changes what the station is started with.
func startAgents(t *testing.T, edits ...func(*apitest.Rig)) *station {
	t.Helper()
	rig := apitest.Rig{Projects: []string{"web"}, Command: apitest.Agent(t), Run: true}
	for _, edit := range edits {
		edit(&rig)
	}
	env := apitest.Start(t, rig)
	return &station{home: serve(t, apitest.Areas(env.Station)), board: env.Board, env: env}
}

// block moves task id to blocked on the board, as its session's end would.
func (s *station) block(t *testing.T, id, reason string) {
	t.Helper()
	m := supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo}, To: supervisor.TaskBlocked, Reason: reason, Actor: "station"}
	if _, err := s.board.Move(t.Context(), id, m); err != nil {
		t.Fatal(err)
	}
}

// serve runs a real API server on loopback over st and returns the home
// whose station.json and token lead to it.
func serve(t *testing.T, a api.Areas) string {
	t.Helper()
	home := t.TempDir()
	tok, err := apitype.LoadOrCreateToken(home)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := api.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- api.NewServer(a, tok, nil).Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	if err := apitype.WriteStationFile(home, apitype.StationFile{URL: "http://" + ln.Addr().String(), PID: os.Getpid(), StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BUILDSTATION_HOME", "") // only --home chooses the home here
	return home
}

type result struct {
	code           int
	stdout, stderr string
}

func run(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	return runWith(t, wired, stdin, args...)
}

// runWith runs args with the Deps d in place of wired.
func runWith(t *testing.T, d cli.Deps, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(t.Context(), d, args, strings.NewReader(stdin), &out, &errb)
	return result{code, out.String(), errb.String()}
}

// ok runs args against s (with --home first) and wants exit 0.
func (s *station) ok(t *testing.T, args ...string) string {
	t.Helper()
	r := run(t, "", append([]string{"--home", s.home}, args...)...)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("%v: exit %d, stderr %q", args, r.code, r.stderr)
	}
	return r.stdout
}

func (s *station) addTask(t *testing.T, title string) string {
	t.Helper()
	return strings.TrimSpace(s.ok(t, "task", "add", "--project", "web", "--title", title))
}

func keysOf(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not a JSON object: %s", raw)
	}
	return slices.Sorted(maps.Keys(m))
}

func wantKeys(t *testing.T, what string, raw json.RawMessage, want ...string) {
	t.Helper()
	have := keysOf(t, raw)
	for _, k := range want {
		if !slices.Contains(have, k) {
			t.Errorf("%s lacks field %q (has %v)", what, k, have)
		}
	}
}

func TestTaskAddPrintsID(t *testing.T) {
	s := startBoard(t)
	out := s.ok(t, "task", "add", "--project", "web", "--title", "Fix login", "--body", "details")
	if out != "t1\n" {
		t.Fatalf("stdout = %q, want the id alone on one line", out)
	}
	var tk supervisor.Task
	js := s.ok(t, "task", "add", "--project", "web", "--title", "Two", "--json")
	if err := json.Unmarshal([]byte(js), &tk); err != nil || tk.ID != "t2" || tk.Title != "Two" {
		t.Fatalf("--json = %q (%v)", js, err)
	}
}

func TestTaskAddBodyFile(t *testing.T) {
	s := startBoard(t)
	r := run(t, "from stdin", "task", "add", "--home", s.home, "--project", "web", "--title", "T", "--body-file", "-")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	d := s.ok(t, "task", "show", "t1", "--json")
	if !strings.Contains(d, `"body": "from stdin"`) {
		t.Errorf("body not sent: %s", d)
	}
}

func TestTaskLsJSON(t *testing.T) {
	s := startBoard(t)
	if out := s.ok(t, "task", "ls", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("empty board: %q, want []", out)
	}
	s.addTask(t, "one")
	s.addTask(t, "two")
	var list []json.RawMessage
	if err := json.Unmarshal([]byte(s.ok(t, "task", "ls", "--json")), &list); err != nil || len(list) != 2 {
		t.Fatalf("task ls --json: %v, %d items", err, len(list))
	}
	wantKeys(t, "task", list[0], "id", "project", "title", "state", "attempt", "reason", "created_at", "updated_at")

	if out := s.ok(t, "task", "ls", "--state", "done", "--json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("no done tasks: %q, want []", out)
	}
}

func TestTaskLsTable(t *testing.T) {
	s := startBoard(t)
	s.addTask(t, "Fix the login page")
	s.block(t, "t1", "idle 5m, nudged, idle 5m more")
	out := s.ok(t, "task", "ls")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want header and one row:\n%s", out)
	}
	for _, col := range []string{"ID", "PROJECT", "STATE", "ATTEMPT", "TITLE", "REASON"} {
		if !strings.Contains(lines[0], col) {
			t.Errorf("header lacks %s: %q", col, lines[0])
		}
	}
	if !strings.Contains(lines[1], "blocked") || !strings.Contains(lines[1], "Fix the login page") {
		t.Errorf("row: %q", lines[1])
	}
	if strings.Index(lines[0], "TITLE") != strings.Index(lines[1], "Fix") {
		t.Errorf("columns not aligned:\n%s", out)
	}
}

func TestTaskShowJSONFlagAfterID(t *testing.T) {
	s := startBoard(t)
	s.addTask(t, "one")
	out := s.ok(t, "task", "show", "t1", "--json")
	wantKeys(t, "task show", json.RawMessage(out), "id", "project", "title", "state", "attempt", "reason", "created_at", "updated_at", "history")
	if human := s.ok(t, "task", "show", "t1"); !strings.Contains(human, "t1  one") {
		t.Errorf("human show: %q", human)
	}
}

func TestRequeueCancel(t *testing.T) {
	s := startBoard(t)
	s.addTask(t, "one")
	s.block(t, "t1", "wedged")
	if out := s.ok(t, "task", "requeue", "t1", "--note", "use the other API"); !strings.Contains(out, "attempt 2") {
		t.Errorf("requeue: %q", out)
	}
	// A queued task cannot be requeued: the station's 409, exit 1.
	r := run(t, "", "--home", s.home, "task", "requeue", "t1")
	if r.code != 1 || r.stderr != "buildstation: task t1 is todo; only a blocked or cancelled task can be requeued\n" {
		t.Errorf("requeue todo: %d %q", r.code, r.stderr)
	}
	if out := s.ok(t, "task", "cancel", "t1"); !strings.Contains(out, "cancelled") {
		t.Errorf("cancel: %q", out)
	}
	if out := s.ok(t, "task", "requeue", "t1"); !strings.Contains(out, "attempt 3") {
		t.Errorf("requeue cancelled: %q", out)
	}
}

func TestStatusAndProjects(t *testing.T) {
	s := startBoard(t)
	s.addTask(t, "one")
	if out := s.ok(t, "status"); out != "working 0 · reviewing 0 · idle 0 · blocked 0 · todo 1 · done 0\n"+
		"no gate: web (done is the agent's word alone; set gate = \"make test\" in config.toml to check it)\n" {
		t.Errorf("status: %q", out)
	}
	out := s.ok(t, "status", "--json")
	wantKeys(t, "status", json.RawMessage(out), "tasks", "working", "reviewing", "idle", "blocked")
	if !strings.Contains(out, `"done": 0`) {
		t.Errorf("status --json lacks a zero count for done: %s", out)
	}
	s.ok(t, "project", "pause", "web", "--reason", "flaky tests")
	var ps []supervisor.ProjectInfo
	if err := json.Unmarshal([]byte(s.ok(t, "project", "ls", "--json")), &ps); err != nil || len(ps) != 1 || !ps[0].Paused {
		t.Fatalf("project ls --json: %+v %v", ps, err)
	}
	if out := s.ok(t, "project", "ls"); !strings.Contains(out, "yes: flaky tests") {
		t.Errorf("project ls: %q", out)
	}
	s.ok(t, "project", "resume", "web")
}

// A window set shorter than the shared board's is saved but does not take
// effect: project set says so on stderr, and says nothing otherwise. The
// board is a real shared board (PostgreSQL) whose floor `board cap` set.
func TestProjectSetBelowTheBoardsFloor(t *testing.T) {
	board := pgtest.NewDB(t, 4)
	admin := t.TempDir()
	if err := os.WriteFile(filepath.Join(admin, "config.toml"), fmt.Appendf(nil, "board = %q\nstation = \"admin\"\n", board), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := run(t, "", "--home", admin, "board", "cap", "web", "--idle-window", "15m"); r.code != 0 {
		t.Fatalf("board cap: exit %d %q", r.code, r.stderr)
	}
	s := startShared(t, board, "here", true)
	// The station reads the board's windows as it joins the board.
	waitProject(t, s, func(p supervisor.ProjectInfo) bool { return p.IdleWindow == "15m0s" })
	if out := s.ok(t, "project", "set", "web", "idle_window=20m"); out != "web: idle_window = 20m (was 15 min)\nweb: idle 20 min, block 5 min, review idle 10 min\n" {
		t.Errorf("project set above the floor: %q", out)
	}
	r := run(t, "", "--home", s.home, "project", "set", "web", "idle_window=1m")
	want := "note: the shared board keeps web's idle window at 15 min or longer (buildstation board cap), so this station's 1 min is saved but waits until the board's is lowered\n"
	if r.code != 0 || r.stdout != "web: idle_window = 1m (was 20 min)\nweb: idle 15 min, block 5 min, review idle 10 min\n" || r.stderr != want {
		t.Errorf("project set below the floor: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// waitProject waits, on the station's events, until project web is as
// ok says.
func waitProject(t *testing.T, s *station, ok func(supervisor.ProjectInfo) bool) {
	t.Helper()
	sub := s.env.Station.Sessions.Subscribe(256)
	defer sub.Close()
	timeout := time.NewTimer(time.Minute)
	defer timeout.Stop()
	for {
		ps, err := s.env.Station.Projects.Projects(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == 1 && ok(ps[0]) {
			return
		}
		select {
		case <-sub.C:
		case <-timeout.C:
			t.Fatalf("project web is %+v after a minute", ps)
		}
	}
}

func TestHomeFlagPositions(t *testing.T) {
	s := startBoard(t)
	s.addTask(t, "one")
	for _, args := range [][]string{
		{"--home", s.home, "task", "ls", "--json"},
		{"--home=" + s.home, "task", "ls", "--json"},
		{"task", "ls", "--home", s.home, "--json"},
		{"task", "--home", s.home, "ls", "--json"},
		{"task", "show", "t1", "--home", s.home},
	} {
		if r := run(t, "", args...); r.code != 0 || !strings.Contains(r.stdout, "t1") {
			t.Errorf("%v: exit %d, %q %q", args, r.code, r.stdout, r.stderr)
		}
	}
}

func TestErrors(t *testing.T) {
	s := startBoard(t)
	s.addTask(t, "one")
	h := s.home
	tests := []struct {
		name string
		args []string
		code int
		want string // the whole stderr line
	}{
		{"unknown task", []string{"--home", h, "task", "show", "t9"}, 1, `buildstation: task t9 not found; list tasks with "buildstation task ls"`},
		{"unknown session", []string{"--home", h, "session", "send", "s9", "hi"}, 1, `buildstation: no live session s9; session ids look like t2.3 (task t2, attempt 3) and a task id picks its live session; list them with "buildstation session ls"`},
		{"unknown project", []string{"--home", h, "task", "add", "--project", "nope", "--title", "x"}, 1, `buildstation: unknown project "nope"; use one of "web", or add it to config.toml (the station picks it up at once)`},
		{"unknown verb", []string{"frobnicate"}, 2, "buildstation: unknown command \"frobnicate\"; use one of " + "agent, board, daemon, demo, logs, notify, open, project, service, session, source, status, task, version"},
		{"no verb", nil, 2, "buildstation: a command is missing; use one of agent, board, daemon, demo, logs, notify, open, project, service, session, source, status, task, version"},
		{"unknown sub-verb", []string{"task", "frob"}, 2, `buildstation: unknown command "task frob"; use one of task accept, task add, task cancel, task diff, task ls, task merge, task pr, task requeue, task show`},
		{"unknown flag", []string{"--home", h, "task", "ls", "--colour"}, 2, `buildstation: task ls: flag provided but not defined: -colour; see "buildstation task ls -h"`},
		{"missing project", []string{"--home", h, "task", "add", "--title", "x"}, 2, `buildstation: task add needs --project; list projects with "buildstation project ls"`},
		{"body and body-file", []string{"--home", h, "task", "add", "--project", "web", "--title", "x", "--body", "a", "--body-file", "f"}, 2, "buildstation: task add takes --body or --body-file, not both"},
		{"bad state", []string{"--home", h, "task", "ls", "--state", "lost"}, 2, `buildstation: unknown --state "lost"; use one of todo, working, review, blocked, done, cancelled`},
		{"missing id", []string{"--home", h, "task", "show"}, 2, "buildstation: usage: buildstation task show ID [--json]"},
		{"agent bad status", []string{"agent", "status", "napping"}, 2, `buildstation: unknown status "napping"; use working or reviewing`},
		{"home without folder", []string{"--home"}, 2, "buildstation: --home needs a folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", tt.args...)
			if r.code != tt.code || r.stderr != tt.want+"\n" || r.stdout != "" {
				t.Errorf("got exit %d stderr %q stdout %q\nwant exit %d stderr %q", r.code, r.stderr, r.stdout, tt.code, tt.want)
			}
		})
	}
}

func TestNoStation(t *testing.T) {
	home := t.TempDir()
	r := run(t, "", "task", "ls", "--home", home)
	want := `buildstation: no station is running for ` + home + `; start one with "buildstation daemon"` + "\n"
	if r.code != 1 || r.stderr != want {
		t.Fatalf("got %d %q, want 1 %q", r.code, r.stderr, want)
	}
}

func TestVersion(t *testing.T) {
	r := run(t, "", "version")
	if r.code != 0 || r.stdout != "buildstation "+cli.Version+"\n" {
		t.Fatalf("version: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

func recv[T any](t *testing.T, c <-chan T) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(5 * time.Second):
		t.Fatal("nothing arrived in 5s")
		panic("unreachable")
	}
}

func TestTaskLsPages(t *testing.T) {
	s := startBoard(t)
	for _, title := range []string{"one", "two", "three"} {
		s.addTask(t, title)
	}
	r := run(t, "", "--home", s.home, "task", "ls", "--limit", "2", "--json")
	var page []supervisor.Task
	if err := json.Unmarshal([]byte(r.stdout), &page); r.code != 0 || err != nil || len(page) != 2 || page[1].ID != "t2" {
		t.Fatalf("task ls --limit 2: exit %d, %v, %+v", r.code, err, page)
	}
	if r.stderr != "" {
		t.Errorf("--json wrote to stderr: %q", r.stderr)
	}
	if r := run(t, "", "--home", s.home, "task", "ls", "--limit", "2"); !strings.Contains(r.stderr, "--after t2") || strings.Contains(r.stdout, "three") {
		t.Errorf("a full page does not say how to get the next: %q %q", r.stdout, r.stderr)
	}
	out := s.ok(t, "task", "ls", "--limit", "2", "--after", "t2", "--json")
	if err := json.Unmarshal([]byte(out), &page); err != nil || len(page) != 1 || page[0].ID != "t3" {
		t.Fatalf("second page: %v %s", err, out)
	}
	if r := run(t, "", "--home", s.home, "task", "ls", "--limit", "-1"); r.code != 2 || !strings.Contains(r.stderr, "--limit") {
		t.Errorf("--limit -1: exit %d %q", r.code, r.stderr)
	}
}
