//go:build unix

package tmux

import "testing"

func TestParsePaneState(t *testing.T) {
	tests := []struct {
		in   string
		want paneState
	}{
		{"0   42\n", paneState{server: 42}},
		{"1 3  42\n", paneState{dead: true, exited: true, status: 3, server: 42}},
		{"1  9 42\n", paneState{dead: true, exited: true, signal: 9, server: 42}},
		{"1   42\n", paneState{dead: true, server: 42}}, // status not collected yet
	}
	for _, tt := range tests {
		if got := parsePaneState(tt.in); got != tt.want {
			t.Errorf("parsePaneState(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}
