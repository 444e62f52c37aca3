package fakeagent

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		script string
		want   []Step
	}{
		{"print hello world", []Step{{Verb: "print", Text: "hello world"}}},
		{"print", []Step{{Verb: "print"}}},
		{"  sleep 2s ;; \n\n sleep 0s; ", []Step{{Verb: "sleep", Dur: 2 * time.Second}, {Verb: "sleep"}}},
		{"heartbeat 1s 30s", []Step{{Verb: "heartbeat", Every: time.Second, For: 30 * time.Second}}},
		{"heartbeat 500ms forever", []Step{{Verb: "heartbeat", Every: 500 * time.Millisecond, Forever: true}}},
		{"read\nread-prompt Continue?\nread-submit", []Step{{Verb: "read"}, {Verb: "read-prompt", Text: "Continue?"}, {Verb: "read-submit"}}},
		{"progress half way; status reviewing; complete all done; block need a key", []Step{
			{Verb: "progress", Text: "half way"},
			{Verb: "status", Text: "reviewing"},
			{Verb: "complete", Text: "all done"},
			{Verb: "block", Text: "need a key"},
		}},
		{"status working", []Step{{Verb: "status", Text: "working"}}},
		{"spin 3s; child-spin 1m; child-sleep 10s; grandchild-sleep 1h", []Step{
			{Verb: "spin", Dur: 3 * time.Second},
			{Verb: "child-spin", Dur: time.Minute},
			{Verb: "child-sleep", Dur: 10 * time.Second},
			{Verb: "grandchild-sleep", Dur: time.Hour},
		}},
		{"commit add the thing; dirty half a thought; commit-every 1m forever", []Step{
			{Verb: "commit", Text: "add the thing"},
			{Verb: "dirty", Text: "half a thought"},
			{Verb: "commit-every", Every: time.Minute, Forever: true},
		}},
		{"ignore-term; exit 3", []Step{{Verb: "ignore-term"}, {Verb: "exit", Code: 3}}},
		{"wedge", []Step{{Verb: "wedge"}}},
		{"print tick; sleep 1s; loop", []Step{{Verb: "print", Text: "tick"}, {Verb: "sleep", Dur: time.Second}, {Verb: "loop"}}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.script)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.script, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.script, got, tt.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		script string
		want   []string // all must appear in the error
	}{
		{"", []string{"empty script"}},
		{" ; \n ", []string{"empty script"}},
		{"print ok; shout hi", []string{`step 2 "shout hi"`, `unknown verb "shout"`, "allowed:", "print TEXT", "read-submit"}},
		{"sleep", []string{`step 1 "sleep"`, `want "sleep DUR"`}},
		{"sleep soon", []string{`bad duration "soon"`, "Go duration"}},
		{"sleep -1s", []string{`bad duration "-1s"`}},
		{"sleep 1s 2s", []string{"exactly one duration"}},
		{"heartbeat 1s", []string{`want "heartbeat EVERY FOR|forever"`}},
		{"heartbeat 0s 10s", []string{"above zero"}},
		{"heartbeat 1s always", []string{`bad duration "always"`}},
		{"commit-every 1m", []string{`want "commit-every EVERY FOR|forever"`}},
		{"status done", []string{"working or reviewing"}},
		{"exit", []string{"one exit code"}},
		{"exit 256", []string{"0 to 255"}},
		{"exit x", []string{"0 to 255"}},
		{"read now", []string{"takes no arguments"}},
		{"wedge hard", []string{"takes no arguments"}},
		{"commit", []string{"needs a message"}},
		{"loop; print x", []string{`step 1 "loop"`, "last step"}},
		{"loop", []string{"needs steps before it"}},
	}
	for _, tt := range tests {
		_, err := Parse(tt.script)
		if err == nil {
			t.Errorf("Parse(%q) accepted a bad script", tt.script)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Parse(%q) error %q, want it to mention %q", tt.script, err, w)
			}
		}
	}
}
