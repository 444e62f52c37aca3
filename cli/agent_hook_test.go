package cli_test

import (
	"net"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// agentEnv starts a station with session s7 (task t1) and points the agent
// side's environment at it.
func agentEnv(t *testing.T) *station {
	t.Helper()
	s := startStation(t)
	s.addTask(t, "one")
	s.fake.AddSession(supervisor.SessionInfo{ID: "s7", TaskID: "t1", State: supervisor.SessWorking}, "tok-s7")
	sf, err := apitype.ReadStationFile(s.home)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("BUILDSTATION_URL", sf.URL)
	t.Setenv("BUILDSTATION_TOKEN", "tok-s7")
	t.Setenv("BUILDSTATION_SESSION_ID", "s7")
	return s
}

func agentCalls(s *station) string {
	var got []string
	for _, c := range s.fake.Calls() {
		if strings.HasPrefix(c.Method, "Agent") {
			got = append(got, c.Method+"("+c.SessionID+","+c.Arg+")")
		}
	}
	return strings.Join(got, " ")
}

func TestAgentHookSends(t *testing.T) {
	s := agentEnv(t)
	hooks := []string{
		`{"session_id":"c0ffee","cwd":"/src/web","hook_event_name":"Notification","message":"Claude needs your permission","notification_type":"permission_prompt"}`,
		`{"session_id":"c0ffee","transcript_path":"/t.jsonl","cwd":"/src/web","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_response":{"stdout":"` + strings.Repeat("ok ", 1<<19) + `"}}`,
		`{"session_id":"c0ffee","hook_event_name":"Notification","message":"` + strings.Repeat("x", 2<<20) + `"}`,
		"{\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}\n",
	}
	for _, in := range hooks {
		r := run(t, in, "agent", "hook")
		if r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Errorf("hook %.60s…: exit %d stdout %q stderr %q", in, r.code, r.stdout, r.stderr)
		}
	}
	got := agentCalls(s)
	want := []string{
		"AgentHook(s7,Notification permission_prompt Claude needs your permission)",
		"AgentHook(s7,PostToolUse Bash)",
		"AgentHook(s7,Notification " + strings.Repeat("x", 4<<10) + "…)",
		"AgentHook(s7,Stop)",
	}
	if got != strings.Join(want, " ") {
		t.Errorf("calls = %.300s\nwant %.300s", got, strings.Join(want, " "))
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
		{"ended session", map[string]string{"BUILDSTATION_TOKEN": "tok-gone", "BUILDSTATION_SESSION_ID": "s9"}, good, nil, "no live session s9"},
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
	s := agentEnv(t)
	for _, args := range [][]string{
		{"agent", "review", "approve"},
		{"agent", "review", "changes", "--notes", "add a test"},
		{"agent", "review", "--notes", "clean", "approve"},
	} {
		if r := run(t, "", args...); r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Fatalf("%v: exit %d %q %q", args, r.code, r.stdout, r.stderr)
		}
	}
	want := "AgentReview(s7,approve: ) AgentReview(s7,changes: add a test) AgentReview(s7,approve: clean)"
	if got := agentCalls(s); got != want {
		t.Errorf("calls = %s, want %s", got, want)
	}

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
	s.fake.Fail("AgentReview", supervisor.Invalidf("session s7 is not a review; finish coding with complete_task"))
	if r := run(t, "", "agent", "review", "approve"); r.code != 1 || r.stderr != "buildstation: session s7 is not a review; finish coding with complete_task\n" {
		t.Errorf("refused review: exit %d stderr %q", r.code, r.stderr)
	}
}
