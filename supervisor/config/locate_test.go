package config

import (
	"strings"
	"testing"
)

func TestLocate(t *testing.T) {
	text := strings.Join([]string{
		`# a comment with [brackets] and key = "value"`, // 1
		`max_sessions = 4`,                      // 2
		`"quoted key" = 1`,                      // 3
		`dotted . key = "x" # trailing comment`, // 4
		`nudge = """`,                           // 5
		`[[projects]]`,                          // 6: inside a string
		`name = "fake"`,                         // 7: inside a string
		`"""`,                                   // 8
		`lit = '''`,                             // 9
		`[defaults]'''`,                         // 10
		`[ defaults ]`,                          // 11
		`idle_window = "5m"`,                    // 12
		`[agents.claude]`,                       // 13
		`env = { A = "1", B = { C = "2" } }`,    // 14
		`[[projects]]`,                          // 15
		`name = "a"`,                            // 16
		`[[projects]]`,                          // 17
		`name = "b" # [[projects]]`,             // 18
		`args = [`,                              // 19
		`  "x", # comment ]`,                    // 20
		`  "y",`,                                // 21
		`]`,                                     // 22
		`idle_window = "1m"`,                    // 23
		`[projects.sub]`,                        // 24
		`k = 1`,                                 // 25
		`[[inline]]`,                            // 26
		`list = [`,                              // 27
		`  { n = 1 },`,                          // 28
		`  { n = 2, m = "a\"b" },`,              // 29
		`]`,                                     // 30
	}, "\r\n")
	tests := []struct {
		key  keyPath
		line int
	}{
		{keyPath{}.with("max_sessions"), 2},
		{keyPath{}.with("quoted key"), 3},
		{keyPath{}.with("dotted"), 4},
		{keyPath{}.with("dotted").with("key"), 4},
		{keyPath{}.with("nudge"), 5},
		{keyPath{}.with("lit"), 9},
		{keyPath{}.with("defaults"), 11},
		{keyPath{}.with("defaults").with("idle_window"), 12},
		{keyPath{}.with("agents"), 13},
		{keyPath{}.with("agents").with("claude"), 13},
		{keyPath{}.with("agents").with("claude").with("env").with("A"), 14},
		{keyPath{}.with("agents").with("claude").with("env").with("B").with("C"), 14},
		{keyPath{}.with("projects"), 15},
		{keyPath{}.with("projects").at(0), 15},
		{keyPath{}.with("projects").at(0).with("name"), 16},
		{keyPath{}.with("projects").at(1), 17},
		{keyPath{}.with("projects").at(1).with("name"), 18},
		{keyPath{}.with("projects").at(1).with("args"), 19},
		{keyPath{}.with("projects").at(1).with("idle_window"), 23},
		{keyPath{}.with("projects").at(1).with("sub").with("k"), 25},
		{keyPath{}.with("inline").at(0).with("list").at(0).with("n"), 28},
		{keyPath{}.with("inline").at(0).with("list").at(1).with("m"), 29},
		// Keys that are not written fall back to their table, then to line 1.
		{keyPath{}.with("projects").at(1).with("path"), 17},
		{keyPath{}.with("projects").at(7).with("path"), 15},
		{keyPath{}.with("nowhere"), 1},
	}
	l := locate(text)
	for _, tt := range tests {
		if got := l.line(tt.key); got != tt.line {
			t.Errorf("line(%s) = %d, want %d", tt.key, got, tt.line)
		}
	}
	if _, ok := l[keyPath{}.with("projects").at(2).String()]; ok {
		t.Errorf("a [[projects]] inside a string was counted")
	}
}

func TestKeyPathString(t *testing.T) {
	tests := []struct {
		key  keyPath
		want string
	}{
		{keyPath{}.with("projects").at(1).with("idle_window"), "projects[1].idle_window"},
		{keyPath{}.with("agents").with("my agent").with("command"), `agents."my agent".command`},
		{keyPath{}.with("a.b"), `"a.b"`},
		{keyPath{}.with(""), `""`},
	}
	for _, tt := range tests {
		if got := tt.key.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}
