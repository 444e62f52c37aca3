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
