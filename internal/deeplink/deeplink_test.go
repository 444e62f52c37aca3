package deeplink

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestParseDeepLink(t *testing.T) {
	tests := []struct {
		link string
		id   string
		ok   bool
	}{
		{"buildstation://session/3f2a9c", "3f2a9c", true},
		{"buildstation://session/3f2a9c/", "3f2a9c", true},
		{"buildstation://session/t3.1", "t3.1", true},
		{"buildstation://session/t3.2.review", "t3.2.review", true},
		{"buildstation://session/..", "", false},
		{"buildstation://session/.t3", "", false},
		{"BuildStation://Session/ab-C_9", "ab-C_9", true},
		{"buildstation:session/abc", "abc", true},
		{" buildstation://session/abc\n", "abc", true}, // as a shell or a desktop file may pass it
		{"buildstation://", "", true},
		{"buildstation://dashboard", "", true},
		{"buildstation:///", "", true},
		{"buildstation://session/", "", false},
		{"buildstation://session", "", false},
		{"buildstation://session/a/b", "", false},
		{"buildstation://session/a%2Fb", "", false},
		{"buildstation://session/..", "", false},
		{"buildstation://session/a;rm -rf", "", false},
		{"buildstation://task/abc", "", false},
		{"buildstation://user@session/abc", "", false},
		{"buildstation://session:80/abc", "", false},
		{"http://session/abc", "", false},
		{"3f2a9c", "", false},
		{"", "", false},
		{"buildstation://session/" + string(make([]byte, 65)), "", false},
	}
	for _, tt := range tests {
		id, ok := ParseDeepLink(tt.link)
		if id != tt.id || ok != tt.ok {
			t.Errorf("ParseDeepLink(%q) = %q, %v; want %q, %v", tt.link, id, ok, tt.id, tt.ok)
		}
	}
}

// A notice's button is a link that names its decision:
// buildstation://session/ID?do=allow|deny|answer:TEXT. Anything else in
// the query, or a decision without a session, is refused: the link comes
// from outside, and only what a button of ours puts there is acted on.
func TestParseLinkDecision(t *testing.T) {
	tests := []struct {
		link string
		want Link
		ok   bool
	}{
		{"buildstation://session/t7.1", Link{SessionID: "t7.1"}, true},
		{"buildstation://session/t7.1?do=allow", Link{SessionID: "t7.1", Verb: "allow"}, true},
		{"buildstation://session/t7.1/?do=deny", Link{SessionID: "t7.1", Verb: "deny"}, true},
		{"buildstation://session/t7.1?do=answer%3Ared+%26+%3Cb%3E", Link{SessionID: "t7.1", Verb: "answer", Answer: "red & <b>"}, true},
		{"BUILDSTATION://Session/t7?do=allow", Link{SessionID: "t7", Verb: "allow"}, true},
		{"buildstation://session/t7.1?do=ALLOW", Link{}, false},
		{"buildstation://session/t7.1?do=", Link{}, false},
		{"buildstation://session/t7.1?do=answer%3A", Link{}, false},
		{"buildstation://session/t7.1?do=answer%3A%20%20", Link{}, false},
		{"buildstation://session/t7.1?do=answer%3Aa%0Arm", Link{}, false},
		{"buildstation://session/t7.1?do=answer%3A" + strings.Repeat("x", 201), Link{}, false},
		{"buildstation://session/t7.1?do=allow&do=deny", Link{}, false},
		{"buildstation://session/t7.1?do=allow&note=x", Link{}, false},
		{"buildstation://session/t7.1?note=x", Link{}, false},
		{"buildstation://session/t7.1?do=run", Link{}, false},
		{"buildstation://session/t7.1?do=allow#frag", Link{}, false},
		{"buildstation://dashboard?do=allow", Link{}, false},
		{"buildstation://?do=deny", Link{}, false},
		{"buildstation://session/..?do=allow", Link{}, false},
		{"buildstation:session/t7?do=allow", Link{SessionID: "t7", Verb: "allow"}, true},
	}
	for _, tt := range tests {
		got, ok := ParseLink(tt.link)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseLink(%q) = %+v, %v; want %+v, %v", tt.link, got, ok, tt.want, tt.ok)
		}
		// ParseDeepLink takes what ParseLink takes, for the session alone.
		if id, ok2 := ParseDeepLink(tt.link); ok2 != tt.ok || id != tt.want.SessionID {
			t.Errorf("ParseDeepLink(%q) = %q, %v; want %q, %v", tt.link, id, ok2, tt.want.SessionID, tt.ok)
		}
	}
	for _, l := range []Link{{SessionID: "t7.1", Verb: "allow"}, {SessionID: "t3.2.review", Verb: "deny"},
		{SessionID: "t7", Verb: "answer", Answer: "red & <b> ?do=allow"}, {SessionID: "t9"}} {
		if got, ok := ParseLink(l.String()); !ok || got != l {
			t.Errorf("ParseLink(%q) = %+v, %v; want %+v back", l.String(), got, ok, l)
		}
	}
}

// A decision link carries the key of the station's token over its session,
// verb and answer: the link a notice makes reads back with its key, which
// holds for that token only and for that decision only; a key that is not
// 64 lowercase hex digits, or a second key, is not a link.
func TestDecisionLinkKey(t *testing.T) {
	l := Link{SessionID: "t3.1", Verb: "allow"}
	l.Key = DecisionKey("tok", l)
	got, ok := ParseLink(l.String())
	if !ok || got != l || !got.KeyHolds("tok") {
		t.Fatalf("ParseLink(%q) = %+v %v; want %+v with its key holding", l.String(), got, ok, l)
	}
	if got.KeyHolds("other") || got.KeyHolds("") {
		t.Error("the key holds for another token")
	}
	for _, other := range []Link{{SessionID: "t3.2", Verb: "allow"}, {SessionID: "t3.1", Verb: "deny"}, {SessionID: "t3.1", Verb: "answer", Answer: "yes"}} {
		other.Key = l.Key
		if other.KeyHolds("tok") {
			t.Errorf("the key of %+v holds for %+v", l, other)
		}
	}
	if (Link{SessionID: "t3.1", Verb: "allow"}).KeyHolds("tok") {
		t.Error("a link without a key holds")
	}
	for _, bad := range []string{
		"buildstation://session/t3.1?do=allow&key=abc",
		"buildstation://session/t3.1?do=allow&key=" + strings.ToUpper(l.Key),
		"buildstation://session/t3.1?do=allow&key=" + l.Key + "&key=" + l.Key,
		"buildstation://session/t3.1?key=" + l.Key,
		"buildstation://session/t3.1?do=allow&key=" + l.Key + "&x=1",
	} {
		if got, ok := ParseLink(bad); ok {
			t.Errorf("ParseLink(%q) = %+v, want refused", bad, got)
		}
	}
}

// Issue 33 item 13: a decision link made for one request decided later
// ones too (the key bound session, verb and answer only). Now the link
// names the request its notice showed, the key binds it, and a key made
// for one request holds for no other.
func TestDecisionLinkKeyBindsTheRequest(t *testing.T) {
	l := Link{SessionID: "t3.1", Verb: "allow", Request: "3f9a1c0b2d4e"}
	l.Key = DecisionKey("tok", l)
	got, ok := ParseLink(l.String())
	if !ok || got != l || !got.KeyHolds("tok") {
		t.Fatalf("ParseLink(%q) = %+v %v; want %+v with its key holding", l.String(), got, ok, l)
	}
	later := Link{SessionID: "t3.1", Verb: "allow", Request: "000000000001", Key: l.Key}
	if later.KeyHolds("tok") {
		t.Errorf("the key made for request %s holds for request %s", l.Request, later.Request)
	}
	none := Link{SessionID: "t3.1", Verb: "allow", Key: l.Key}
	if none.KeyHolds("tok") {
		t.Error("the key made for a request holds for a link naming none")
	}
	// A view link may name the request shown; a request id is hex only.
	if got, ok := ParseLink("buildstation://session/t3.1?req=3f9a1c0b2d4e"); !ok || got != (Link{SessionID: "t3.1", Request: "3f9a1c0b2d4e"}) {
		t.Errorf("a view link with its request: %+v %v", got, ok)
	}
	for _, bad := range []string{"buildstation://session/t3.1?do=allow&req=zz", "buildstation://session/t3.1?do=allow&req=a&req=b",
		"buildstation://session/t3.1?req=" + strings.Repeat("a", 65), "buildstation://dashboard?req=ab"} {
		if got, ok := ParseLink(bad); ok {
			t.Errorf("ParseLink(%q) = %+v, want refused", bad, got)
		}
	}
}

// A finished notice's buttons are links too: View diff
// (buildstation://session/ID?do=diff&task=T) opens the task's diff window
// and decides nothing, so it needs no key; Merge
// (?do=merge&task=T&key=K) lands the work, so its key covers the task: a
// key made for one task's merge merges no other, and no other decision.
// A task only with diff or merge, and both only with a task.
func TestLandingLinks(t *testing.T) {
	merge := Link{SessionID: "t3.1", Verb: VerbMerge, Task: "t3"}
	merge.Key = DecisionKey("tok", merge)
	for _, tt := range []struct {
		link string
		want Link
		ok   bool
	}{
		{"buildstation://session/t3.1?do=diff&task=t3", Link{SessionID: "t3.1", Verb: VerbDiff, Task: "t3"}, true},
		{merge.String(), merge, true},
		{"buildstation://session/t3.1?do=merge&task=t3", Link{SessionID: "t3.1", Verb: VerbMerge, Task: "t3"}, true},
		{"buildstation://session/t3.1?do=merge", Link{}, false},
		{"buildstation://session/t3.1?do=diff", Link{}, false},
		{"buildstation://session/t3.1?do=allow&task=t3", Link{}, false},
		{"buildstation://session/t3.1?task=t3", Link{}, false},
		{"buildstation://session/t3.1?do=merge&task=..", Link{}, false},
		{"buildstation://session/t3.1?do=merge&task=t3&task=t4", Link{}, false},
		{"buildstation://session/t3.1?do=diff&task=t3&key=" + merge.Key, Link{}, false},
		{"buildstation://dashboard?do=merge&task=t3", Link{}, false},
	} {
		got, ok := ParseLink(tt.link)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseLink(%q) = %+v, %v; want %+v, %v", tt.link, got, ok, tt.want, tt.ok)
		}
	}
	if l, _ := ParseLink(merge.String()); !l.KeyHolds("tok") {
		t.Errorf("the Merge link's key does not hold: %+v", l)
	}
	for _, other := range []Link{
		{SessionID: "t3.1", Verb: VerbMerge, Task: "t4"},
		{SessionID: "t4.1", Verb: VerbMerge, Task: "t3"},
		{SessionID: "t3.1", Verb: "allow"},
		{SessionID: "t3.1", Verb: "allow", Task: "t3"},
	} {
		other.Key = merge.Key
		if other.KeyHolds("tok") {
			t.Errorf("the key of %+v holds for %+v", merge, other)
		}
	}
	// The keys of links without a task are those made before tasks
	// were carried: a toast shown before an upgrade still decides.
	allow := Link{SessionID: "t3.1", Verb: "allow", Request: "ab"}
	m := hmac.New(sha256.New, []byte("tok"))
	m.Write([]byte("buildstation link decision\x00t3.1\x00allow\x00\x00ab"))
	if got, want := DecisionKey("tok", allow), hex.EncodeToString(m.Sum(nil)); got != want {
		t.Errorf("an Allow link's key changed: %s, was %s", got, want)
	}
}
