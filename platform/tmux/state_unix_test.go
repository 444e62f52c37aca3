//go:build unix

package tmux

import "testing"

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
