package main

import (
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		name   string
		in     string
		subs   []string
		pastes int
	}{
		{"one paste, one Enter", "\x1b[200~a\r\nb\nc\x1b[201~\r", []string{"a\nb\nc"}, 1},
		{"markers dropped: each line submits", "a\rb\rc\r", []string{"a", "b", "c"}, 0},
		{"a typed line, Enter apart", "Your task is in the file x\r", []string{"Your task is in the file x"}, 0},
		{"nothing submitted", "\x1b[200~abc\x1b[201~", nil, 1},
	} {
		r := parse([]byte(tt.in))
		if !slices.Equal(r.Submissions, tt.subs) || r.Pastes != tt.pastes {
			t.Errorf("%s: got %q (%d pastes), want %q (%d)", tt.name, r.Submissions, r.Pastes, tt.subs, tt.pastes)
		}
	}
	if f, ok := pointer(`Your task is in the file C:\Users\ada\s 1\prompt.md (also named by $BUILDSTATION_PROMPT_FILE): read all of it first, then do what it says.`); !ok || f != `C:\Users\ada\s 1\prompt.md` {
		t.Errorf("pointer = %q %v", f, ok)
	}
}
