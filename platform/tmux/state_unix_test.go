//go:build unix

package tmux

import (
	"strings"
	"testing"
)

func TestParsePaneState(t *testing.T) {
	tests := []struct {
		in   string
		want paneState
	}{
		{"%3 0   42\n", paneState{server: 42}},
		{"%3 1 3  42\n", paneState{dead: true, exited: true, status: 3, server: 42}},
		{"%3 1  9 42\n", paneState{dead: true, exited: true, signal: 9, server: 42}},
		{"%3 1   42\n", paneState{dead: true, server: 42}}, // status not collected yet
		{"    42\n", paneState{gone: true, server: 42}},    // killed by hand: tmux 3.3 answers with no pane
	}
	for _, tt := range tests {
		if got := parsePaneState("%3", tt.in); got != tt.want {
			t.Errorf("parsePaneState(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// The tmux server serves every session, so it carries none's identity:
// ending the session whose token a station started inside would
// otherwise end the server, and every other session with it.
func TestServerCarriesNoSessionIdentity(t *testing.T) {
	t.Setenv("TMUX", "/tmp/someone-else,1,0")
	t.Setenv("BUILDSTATION_TOKEN", "a-session-token")
	t.Setenv("BUILDSTATION_SESSION_ID", "s9")
	t.Setenv("BUILDSTATION_TOKEN_HINT", "kept")
	env := strings.Join(clientEnv(), "\n") + "\n"
	for _, name := range []string{"TMUX=", "BUILDSTATION_TOKEN=", "BUILDSTATION_SESSION_ID="} {
		if strings.Contains("\n"+env, "\n"+name) {
			t.Errorf("the tmux server's environment carries %s…", name)
		}
	}
	if !strings.Contains(env, "BUILDSTATION_TOKEN_HINT=kept\n") {
		t.Error("clientEnv dropped a variable that only begins like one it drops")
	}
}
