package fakeagent

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Step is one parsed step of a script. Parse fills only the fields its verb
// uses, so a test can compare whole Steps.
type Step struct {
	Verb    string        // the verb, e.g. "print"
	Text    string        // free text: print, read-prompt, progress, complete, block, commit, dirty, status
	Dur     time.Duration // sleep, spin, child-spin, child-sleep, grandchild-sleep
	Every   time.Duration // heartbeat, commit-every: the period
	For     time.Duration // heartbeat, commit-every: how long, unless Forever
	Forever bool          // heartbeat, commit-every: FOR was "forever"
	Code    int           // exit
}

// argKind says what a verb takes after its name.
type argKind int

const (
	argNone     argKind = iota
	argText             // the rest of the step, may be empty
	argMessage          // the rest of the step, must not be empty
	argDur              // one Go duration
	argEveryFor         // a period and a duration or "forever"
	argStatus           // working or reviewing
	argCode             // an exit code 0..255
)

// verbs is the whole language, in the order error messages list it.
var verbs = []struct {
	name  string
	kind  argKind
	usage string
}{
	{"print", argText, "print TEXT"},
	{"sleep", argDur, "sleep DUR"},
	{"heartbeat", argEveryFor, "heartbeat EVERY FOR|forever"},
	{"read", argNone, "read"},
	{"read-prompt", argText, "read-prompt TEXT"},
	{"read-submit", argNone, "read-submit"},
	{"progress", argText, "progress TEXT"},
	{"status", argStatus, "status working|reviewing"},
	{"complete", argText, "complete TEXT"},
	{"block", argText, "block TEXT"},
	{"spin", argDur, "spin DUR"},
	{"child-spin", argDur, "child-spin DUR"},
	{"child-sleep", argDur, "child-sleep DUR"},
	{"grandchild-sleep", argDur, "grandchild-sleep DUR"},
	{"commit", argMessage, "commit MSG"},
	{"dirty", argText, "dirty TEXT"},
	{"commit-every", argEveryFor, "commit-every EVERY FOR|forever"},
	{"ignore-term", argNone, "ignore-term"},
	{"exit", argCode, "exit N"},
	{"wedge", argNone, "wedge"},
	{"loop", argNone, "loop (last step only)"},
}

// Parse checks a whole script before any step runs, so a typo in a test's
// script fails at once with the step and the allowed forms, not halfway
// through a run that was meant to look healthy.
func Parse(script string) ([]Step, error) {
	var steps []Step
	n := 0
	for line := range strings.SplitSeq(script, "\n") {
		for src := range strings.SplitSeq(line, ";") {
			src = strings.TrimSpace(src)
			if src == "" {
				continue
			}
			n++
			s, err := parseStep(src)
			if err != nil {
				return nil, fmt.Errorf("step %d %q: %w", n, src, err)
			}
			steps = append(steps, s)
		}
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("empty script: want steps like \"print hello; sleep 2s\" separated by ';' or newlines")
	}
	for i, s := range steps {
		if s.Verb != "loop" {
			continue
		}
		if i != len(steps)-1 {
			return nil, fmt.Errorf("step %d \"loop\": loop must be the last step", i+1)
		}
		if i == 0 {
			return nil, fmt.Errorf("step 1 \"loop\": loop needs steps before it to repeat")
		}
	}
	return steps, nil
}

func parseStep(src string) (Step, error) {
	name, rest, _ := strings.Cut(src, " ")
	rest = strings.TrimSpace(rest)
	for _, v := range verbs {
		if v.name != name {
			continue
		}
		s, err := parseArgs(name, v.kind, rest)
		if err != nil {
			return Step{}, fmt.Errorf("want %q: %w", v.usage, err)
		}
		return s, nil
	}
	return Step{}, fmt.Errorf("unknown verb %q; allowed: %s", name, allowed())
}

func parseArgs(verb string, kind argKind, rest string) (Step, error) {
	s := Step{Verb: verb}
	fields := strings.Fields(rest)
	var err error
	switch kind {
	case argNone:
		if rest != "" {
			return s, fmt.Errorf("takes no arguments, got %q", rest)
		}
	case argText:
		s.Text = rest
	case argMessage:
		if rest == "" {
			return s, fmt.Errorf("needs a message")
		}
		s.Text = rest
	case argDur:
		if len(fields) != 1 {
			return s, fmt.Errorf("needs exactly one duration, got %q", rest)
		}
		s.Dur, err = parseDur(fields[0])
	case argEveryFor:
		if len(fields) != 2 {
			return s, fmt.Errorf("needs a period and a duration or \"forever\", got %q", rest)
		}
		if s.Every, err = parseDur(fields[0]); err != nil {
			return s, err
		}
		if s.Every <= 0 {
			return s, fmt.Errorf("period %q must be above zero", fields[0])
		}
		if fields[1] == "forever" {
			s.Forever = true
		} else {
			s.For, err = parseDur(fields[1])
		}
	case argStatus:
		if rest != "working" && rest != "reviewing" {
			return s, fmt.Errorf("status must be working or reviewing, got %q", rest)
		}
		s.Text = rest
	case argCode:
		if len(fields) != 1 {
			return s, fmt.Errorf("needs one exit code, got %q", rest)
		}
		s.Code, err = strconv.Atoi(fields[0])
		if err != nil || s.Code < 0 || s.Code > 255 {
			return s, fmt.Errorf("exit code must be a number from 0 to 255, got %q", fields[0])
		}
	}
	return s, err
}

func parseDur(f string) (time.Duration, error) {
	d, err := time.ParseDuration(f)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("bad duration %q: want a Go duration like 500ms, 2s or 5m", f)
	}
	return d, nil
}

func allowed() string {
	names := make([]string, len(verbs))
	for i, v := range verbs {
		names[i] = v.usage
	}
	return strings.Join(names, ", ")
}
