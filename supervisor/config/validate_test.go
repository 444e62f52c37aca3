package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestErrors checks that every kind of problem is one *Error naming the file,
// the line the user has to fix, and the key. In text, {dir} is an existing
// folder and {file} an existing regular file.
func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		line int
		key  string
		want string // in the problem or fix
	}{
		{"unknown top-level key", "max_sesions = 4\n", 1, "max_sesions", "unknown key"},
		{"unknown table", "max_sessions = 4\n\n[server]\nport = 1\n", 3, "server", "unknown key"},
		{"unknown key in defaults", "[defaults]\nagent = \"claude\"\nidle_windw = \"5m\"\n", 3, "defaults.idle_windw", "unknown key"},
		{"keys are case-sensitive", "[defaults]\nIdle_Window = \"5m\"\n", 2, "defaults.Idle_Window", "case-sensitive"},
		{"unknown key in second project", `
[[projects]]
name = "a"
path = '{dir}'
idle_window = "1m"

[[projects]]
name = "b"
path = '{dir}'
idel_window = "1m"
`, 10, "projects[1].idel_window", "unknown key"},
		{"unknown key in agent", "[agents.mine]\ncommand = [\"x\"]\ncommnd = [\"y\"]\n", 3, "agents.mine.commnd", "unknown key"},
		{"unknown key in inline project", "projects = [\n  { name = \"a\", path = '{dir}' },\n  { name = \"b\", path = '{dir}', bogus = 1 },\n]\n", 3, "projects[1].bogus", "unknown key"},
		{"syntax error", "max_sessions = 4\n[defaults]\nidle_window = 5m\n", 3, "", "invalid TOML"},
		{"unclosed table header", "max_sessions = 4\n\n[defaults\n", 3, "", "invalid TOML"},
		{"duplicate key", "[defaults]\nnudge = \"a\"\nnudge = \"b\"\n", 3, "", "invalid TOML"},
		{"bad duration in project", "[[projects]]\nname = \"a\"\npath = '{dir}'\nidle_window = \"5x\"\n", 4, "projects[0].idle_window", `"5x" is not a duration`},
		{"duration under 1s", "[defaults]\nblock_window = \"500ms\"\n", 2, "defaults.block_window", "shorter than 1s"},
		{"negative duration", "[defaults]\nidle_window = \"-5m\"\n", 2, "defaults.idle_window", "shorter than 1s"},
		{"duration as a number", "[defaults]\nreview_idle_window = 300\n", 2, "defaults.review_idle_window", "not a duration"},
		{"bad lease", "max_sessions = 4\nlease = \"forever\"\n", 2, "lease", "not a duration"},
		{"cpu_alive as a fraction", "[defaults]\ncpu_alive = \"0.1\"\n", 2, "defaults.cpu_alive", "not a percentage"},
		{"cpu_alive zero", "[defaults]\ncpu_alive = \"0%\"\n", 2, "defaults.cpu_alive", "above 0%"},
		{"cpu_alive over 100", "[defaults]\ncpu_alive = \"150%\"\n", 2, "defaults.cpu_alive", "at most 100%"},
		{"cpu_alive as a number", "[defaults]\ncpu_alive = 10\n", 2, "defaults.cpu_alive", "not a string"},
		{"bad breaker", "[defaults]\nbreaker = \"3 per 10m\"\n", 2, "defaults.breaker", "not a breaker"},
		{"breaker bad duration", "[[projects]]\nname = \"a\"\npath = '{dir}'\nbreaker = \"3 in 10x\"\n", 4, "projects[0].breaker", "not a breaker"},
		{"breaker zero count", "[defaults]\nbreaker = \"0 in 10m\"\n", 2, "defaults.breaker", "not a breaker"},
		{"bad backend", "[defaults]\nbackend = \"screen\"\n", 2, "defaults.backend", `"screen" is not a backend`},
		{"bad permission mode", "[defaults]\npermission_mode = \"yolo\"\n", 2, "defaults.permission_mode", "bypassPermissions"},
		{"empty nudge", "[defaults]\nnudge = \"  \"\n", 2, "defaults.nudge", "is empty"},
		{"unknown nudge placeholder", "[defaults]\nnudge = \"silent for {idel}\"\n", 2, "defaults.nudge", "unknown placeholder {idel}"},
		{"unknown nudge placeholder in a project", "[[projects]]\nname = \"a\"\npath = '{dir}'\nnudge = \"{idle}: {complete_task}\"\n", 4, "projects[0].nudge", "{complete}"},
		{"agent and command together", "[[projects]]\nname = \"a\"\npath = '{dir}'\nagent = \"claude\"\ncommand = [\"sh\"]\n", 5, "projects[0].command", "set together with agent"},
		{"max_sessions zero", "# comment\nmax_sessions = 0\n", 2, "max_sessions", "less than 1"},
		{"max_sessions as a string", "max_sessions = \"4\"\n", 1, "max_sessions", "not a whole number"},
		{"defaults not a table", "defaults = 3\n", 1, "defaults", "not a table"},
		{"projects not tables", "projects = [1]\n", 1, "projects[0]", "not a table"},
		{"project without name", `
[[projects]]
name = "a"
path = '{dir}'

[[projects]]
path = '{dir}'
`, 6, "projects[1].name", "is missing"},
		{"project with empty name", "[[projects]]\nname = \"\"\npath = '{dir}'\n", 2, "projects[0].name", "is empty"},
		{"duplicate project names", `
[[projects]]
name = "web"
path = '{dir}'

[[projects]]
path = '{dir}'
name = "web"
`, 8, "projects[1].name", "already the name of projects[0]"},
		{"project without path", "[[projects]]\nname = \"a\"\n", 1, "projects[0].path", "is missing"},
		{"project path missing on disk", "[[projects]]\nname = \"a\"\npath = 'nope'\n", 3, "projects[0].path", "does not exist"},
		{"project path is a file", "[[projects]]\nname = \"a\"\npath = '{file}'\n", 3, "projects[0].path", "not a directory"},
		{"unknown agent in defaults", "[defaults]\nagent = \"clod\"\n", 2, "defaults.agent", `"clod" is not an agent`},
		{"unknown agent in project", "[[projects]]\nname = \"a\"\npath = '{dir}'\nagent = \"clod\"\n", 4, "projects[0].agent", "[agents.clod]"},
		{"concurrency zero", "[[projects]]\nname = \"a\"\npath = '{dir}'\nconcurrency = 0\n", 4, "projects[0].concurrency", "less than 1"},
		{"empty inline command", "[[projects]]\nname = \"a\"\npath = '{dir}'\ncommand = []\n", 4, "projects[0].command", "is empty"},
		{"agent without command", "[agents.mine]\nargs = [\"-v\"]\n", 1, "agents.mine.command", "is empty"},
		{"built-in agent emptied", "[agents.claude]\ncommand = []\n", 2, "agents.claude.command", "is empty"},
		{"bad profile", "[agents.mine]\ncommand = [\"x\"]\nprofile = \"gpt\"\n", 3, "agents.mine.profile", "not a profile"},
		{"env value not a string", "[agents.mine]\ncommand = [\"x\"]\nenv = { A = 1 }\n", 3, "agents.mine.env.A", "not a string"},
		{"args not strings", "[agents.mine]\ncommand = [\"x\"]\nargs = [1]\n", 3, "agents.mine.args", "not a string"},
		{"lines counted through a multi-line string", "[defaults]\nnudge = \"\"\"\nline\n[[projects]]\nbogus = 1\n\"\"\"\nbogus = 2\n", 7, "defaults.bogus", "unknown key"},
		{"unknown hook", "[hooks]\non_nudge = [\"x\"]\non_blocked = [\"x\"]\n", 3, "hooks.on_blocked", "on_nudge, on_block, on_permission, on_done, timeout"},
		{"hook as a shell line", "[hooks]\non_done = \"curl -d done ntfy.sh/me\"\n", 2, "hooks.on_done", "not an array of strings"},
		{"empty hook", "[hooks]\non_block = []\n", 2, "hooks.on_block", "is empty"},
		{"hook with an empty program", "[hooks]\non_permission = [\"\", \"x\"]\n", 2, "hooks.on_permission", "is empty"},
		{"bad hook timeout", "[hooks]\ntimeout = 30\n", 2, "hooks.timeout", "not a duration"},
		{"hooks not a table", "hooks = [\"x\"]\n", 1, "hooks", "not a table"},
		{"first problem in file order wins", "zzz = 1\nmax_sessions = 0\naaa = 2\n", 1, "zzz", "unknown key"},
		{"first problem in file order across tables", "[[projects]]\nname = \"a\"\npath = '{dir}'\nidle_window = \"x\"\n\n[defaults]\nidle_window = \"y\"\n", 4, "projects[0].idle_window", "not a duration"},
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "file.txt")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.toml")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.NewReplacer("{dir}", dir, "{file}", file).Replace(tt.text)
			cfg, err := Parse(path, []byte(text), Platform{})
			if err == nil {
				t.Fatalf("Parse succeeded: %+v", cfg)
			}
			if cfg != nil {
				t.Errorf("Parse returned a Config with its error")
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is %T, not *Error", err, err)
			}
			msg := err.Error()
			prefix := path + ":" + strconv.Itoa(tt.line) + ": " + tt.key
			if !strings.HasPrefix(msg, prefix) {
				t.Errorf("error = %q\nwant prefix %q", msg, prefix)
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error = %q\nwant it to contain %q", msg, tt.want)
			}
			if ce.Problem == "" || ce.Fix == "" || !strings.Contains(msg, "; ") {
				t.Errorf("error %q lacks a problem or a fix", msg)
			}
		})
	}
}

func TestMissingPathErrorUnwraps(t *testing.T) {
	_, err := Parse(filepath.Join(t.TempDir(), "config.toml"), []byte("[[projects]]\nname = \"a\"\npath = 'nope'\n"), Platform{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v does not wrap os.ErrNotExist", err)
	}
}

func TestValueSyntax(t *testing.T) {
	cpu := map[string]float64{"10%": 0.10, "100%": 1, "2.5%": 0.025, " 50 %": 0.5}
	for in, want := range cpu {
		if got, err := parseCPU(in); err != nil || got != want {
			t.Errorf("parseCPU(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "%", "10", "0.1", "0%", "-5%", "101%", "NaN%", "ten%"} {
		if _, err := parseCPU(in); err == nil {
			t.Errorf("parseCPU(%q) accepted", in)
		}
	}
	breakers := map[string]Breaker{"3 in 10m": {3, 600e9}, "off": {}, "0": {}, " 1 in 1s ": {1, 1e9}}
	for in, want := range breakers {
		if got, err := parseBreaker(in); err != nil || got != want {
			t.Errorf("parseBreaker(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "3", "in 10m", "3 in", "-1 in 5m", "3 in 10", "3 in 100ms", "on"} {
		if _, err := parseBreaker(in); err == nil {
			t.Errorf("parseBreaker(%q) accepted", in)
		}
	}
}
