package deeplink

import "testing"

// `buildstation open` makes a notice's decision only for a link that
// carries one; a session's link opens its console, a refused
// buildstation: link is bad, anything else is not a link at all.
func TestOpenArgs(t *testing.T) {
	key := DecisionKey("tok", Link{SessionID: "t7.1", Verb: "allow", Request: "3f9a1c0b2d4e"})
	allow := Link{SessionID: "t7.1", Verb: "allow", Request: "3f9a1c0b2d4e", Key: key}
	for _, tt := range []struct {
		args         []string
		decide, bad  bool
		wantDecision string
	}{
		{[]string{allow.String()}, true, false, "allowed once"},
		{[]string{"buildstation://session/t7.1"}, false, false, ""},
		{[]string{"buildstation://session/../etc?do=allow"}, false, true, ""},
		{[]string{"t7.1"}, false, false, ""},
		{[]string{allow.String(), "extra"}, false, false, ""},
		{nil, false, false, ""},
	} {
		l, decide, bad := OpenArgs(tt.args)
		if decide != tt.decide || bad != tt.bad {
			t.Errorf("OpenArgs(%q) = decide %v, bad %v; want %v, %v", tt.args, decide, bad, tt.decide, tt.bad)
		}
		if decide && (l != allow || l.Decided() != tt.wantDecision) {
			t.Errorf("OpenArgs(%q) = %+v (%s), want %+v (%s)", tt.args, l, l.Decided(), allow, tt.wantDecision)
		}
	}
	if got := (Link{Verb: "deny"}).Decided(); got != "denied" {
		t.Errorf("a deny: %q", got)
	}
	if got := (Link{Verb: "answer", Answer: "Yes"}).Decided(); got != "answered Yes" {
		t.Errorf("an answer: %q", got)
	}
}

// What `buildstation open` does with each kind of link: a decision
// (Allow once, Deny, an answer, Merge) is made, and only with the key of
// the station's token; View diff and a session's link only show
// something, so they need none.
func TestOpenArgsLanding(t *testing.T) {
	merge := Link{SessionID: "t3.1", Verb: VerbMerge, Task: "t3"}
	merge.Key = DecisionKey("tok", merge)
	diff := Link{SessionID: "t3.1", Verb: VerbDiff, Task: "t3"}
	for _, tt := range []struct {
		arg          string
		want         Link
		decide, bad  bool
		wantDecision string
	}{
		{merge.String(), merge, true, false, "merged"},
		{diff.String(), diff, false, false, ""},
		{"buildstation://session/t3.1?do=merge&task=t3", Link{SessionID: "t3.1", Verb: VerbMerge, Task: "t3"}, true, false, "merged"},
		{"buildstation://session/t3.1?do=diff", Link{}, false, true, ""},
	} {
		l, decide, bad := OpenArgs([]string{tt.arg})
		if l != tt.want || decide != tt.decide || bad != tt.bad {
			t.Errorf("OpenArgs(%q) = %+v, decide %v, bad %v; want %+v, %v, %v", tt.arg, l, decide, bad, tt.want, tt.decide, tt.bad)
		}
		if decide && l.Decided() != tt.wantDecision {
			t.Errorf("OpenArgs(%q) decided %q, want %q", tt.arg, l.Decided(), tt.wantDecision)
		}
	}
}
