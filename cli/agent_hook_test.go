package cli_test

import (
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// agentEnv starts a station running task t1 in session t1.1 (its agent
// this test binary) and points the agent side's environment at it, as
// the station does for its agent; each edit changes what the station is
// started with.
func agentEnv(t *testing.T, edits ...func(*apitest.Rig)) *station {
	t.Helper()
	s := startAgents(t, edits...)
	s.addTask(t, "one")
	sess, tok := s.env.Session(t, "t1")
	s.agentIs(t, sess.ID, tok)
	return s
}

// agentIs points the agent side's environment at session id.
func (s *station) agentIs(t *testing.T, id, token string) {
	t.Helper()
	sf, err := apitype.ReadStationFile(s.home)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("BUILDSTATION_URL", sf.URL)
	t.Setenv("BUILDSTATION_TOKEN", token)
	t.Setenv("BUILDSTATION_SESSION_ID", id)
}

// reviewEnv is agentEnv for a project whose finished work is reviewed:
// t1's work session completed, the agent side is its review session's.
func reviewEnv(t *testing.T) *station {
	t.Helper()
	s := agentEnv(t, func(r *apitest.Rig) { r.Review = true })
	if r := run(t, "", "agent", "complete", "--summary", "wrote it"); r.code != 0 {
		t.Fatalf("agent complete: exit %d %q", r.code, r.stderr)
	}
	sess, tok := s.env.Review(t, "t1")
	s.agentIs(t, sess.ID, tok)
	return s
}

func TestAgentHookSends(t *testing.T) {
	s := agentEnv(t)
	hooks := []string{
		`{"session_id":"c0ffee","cwd":"/src/web","hook_event_name":"Notification","message":"Claude needs your permission","notification_type":"permission_prompt"}`,
		`{"session_id":"c0ffee","transcript_path":"/t.jsonl","cwd":"/src/web","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_response":{"stdout":"` + strings.Repeat("ok ", 1<<19) + `"}}`,
		`{"session_id":"c0ffee","hook_event_name":"Notification","message":"` + strings.Repeat("x", 2<<20) + `"}`,
		"{\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}\n",
	}
	// What the station read of each (a long message cut to 4 KiB), and
	// each a sign of life on the board.
	want := []string{
		"needs permission: Claude needs your permission",
		"", // a tool's hook is life, nothing to say
		"notification: " + strings.Repeat("x", 4<<10) + "…",
		"turn ended",
	}
	var last time.Time
	for i, in := range hooks {
		r := run(t, in, "agent", "hook")
		if r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Errorf("hook %.60s…: exit %d stdout %q stderr %q", in, r.code, r.stdout, r.stderr)
		}
		info, _ := s.env.Station.Sessions.Session("t1.1")
		if info.Why != want[i] || !info.Evidence["board"].After(last) {
			t.Errorf("hook %.60s…: the station read %.100q (life at %v, before %v), want %.100q", in, info.Why, info.Evidence["board"], last, want[i])
		}
		last = info.Evidence["board"]
	}
}

// Whatever goes wrong, the hook exits 1 with one line on stderr and nothing
// on stdout: the report was not taken, and says so; Claude Code reads
// exit 2 as "block the tool call" and may put a hook's stdout before the
// model, so never those.
func TestAgentHookNeverDisturbs(t *testing.T) {
	agentEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + ln.Addr().String()
	ln.Close()
	good := `{"hook_event_name":"Stop"}`
	tests := []struct {
		name  string
		env   map[string]string
		stdin string
		args  []string
		want  string // part of the stderr line
	}{
		{"no url", map[string]string{"BUILDSTATION_URL": ""}, good, nil, "BUILDSTATION_URL is not set"},
		{"no token", map[string]string{"BUILDSTATION_TOKEN": ""}, good, nil, "BUILDSTATION_TOKEN is not set"},
		{"station down", map[string]string{"BUILDSTATION_URL": deadURL}, good, nil, "does not answer"},
		{"ended session", map[string]string{"BUILDSTATION_TOKEN": "tok-gone", "BUILDSTATION_SESSION_ID": "t9.1"}, good, nil, "no live session t9.1"},
		{"not its station", map[string]string{"BUILDSTATION_TOKEN": "tok-other"}, good, nil, "not this session's station"},
		{"bad json", nil, `{"hook_event_name":`, nil, "not valid"},
		{"not an object", nil, `["Stop"]`, nil, "not valid"},
		{"no event name", nil, `{"session_id":"x"}`, nil, "no hook_event_name"},
		{"empty stdin", nil, "", nil, "no hook JSON on stdin"},
		{"arguments", nil, good, []string{"--verbose"}, "takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			r := run(t, tt.stdin, append([]string{"agent", "hook"}, tt.args...)...)
			if r.code != 1 || r.stdout != "" {
				t.Errorf("exit %d stdout %q, want 1 and nothing", r.code, r.stdout)
			}
			if !strings.HasPrefix(r.stderr, "buildstation agent hook: ") || !strings.Contains(r.stderr, tt.want) ||
				strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, "\n") {
				t.Errorf("stderr = %q, want one line containing %q", r.stderr, tt.want)
			}
		})
	}
}

func TestAgentReview(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		state supervisor.TaskState
		note  string // among t1's notes after
	}{
		{[]string{"agent", "review", "approve"}, supervisor.TaskDone, ""},
		{[]string{"agent", "review", "changes", "--notes", "add a test"}, supervisor.TaskTodo, "review asked for changes: add a test"},
		{[]string{"agent", "review", "--notes", "clean", "approve"}, supervisor.TaskDone, "review approved: clean"},
	} {
		s := reviewEnv(t)
		if r := run(t, "", tt.args...); r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Fatalf("%v: exit %d %q %q", tt.args, r.code, r.stdout, r.stderr)
		}
		tk := s.env.WaitTask(t, "t1", tt.state)
		if tt.note != "" && !slices.Contains(tk.Notes, tt.note) {
			t.Errorf("%v: t1's notes %q, want %q among them", tt.args, tk.Notes, tt.note)
		}
	}
	agentEnv(t) // a work session's

	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"agent", "review", "lgtm"}, 2, `buildstation: unknown verdict "lgtm"; use approve or changes`},
		{[]string{"agent", "review"}, 2, "buildstation: usage: buildstation agent review approve|changes [--notes TEXT]"},
		{[]string{"agent", "review", "changes"}, 2, "buildstation: agent review changes needs --notes saying what must change"},
		{[]string{"agent", "review", "approve", "now"}, 2, "buildstation: usage: buildstation agent review approve|changes [--notes TEXT]"},
	}
	for _, tt := range tests {
		if r := run(t, "", tt.args...); r.code != tt.code || r.stderr != tt.want+"\n" {
			t.Errorf("%v: exit %d stderr %q, want %d %q", tt.args, r.code, r.stderr, tt.code, tt.want)
		}
	}
	if r := run(t, "", "agent", "review", "approve"); r.code != 1 || r.stderr != "buildstation: session t1.1 is not a review; finish coding with complete_task\n" {
		t.Errorf("refused review: exit %d stderr %q", r.code, r.stderr)
	}
}
