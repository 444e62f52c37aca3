package deeplink

import "strings"

// OpenArgs reads `buildstation open`'s arguments for a notice's button:
// the decision its link carries (a Windows toast's Allow once, Deny or
// Merge: buildstation://session/ID?do=allow), read by the same parser as
// every other link. decide is false for anything else (View diff only
// shows: l.Verb is VerbDiff); bad is true for a
// buildstation: link the parser refuses, which nothing may act on.
func OpenArgs(args []string) (l Link, decide, bad bool) {
	if len(args) != 1 || !strings.HasPrefix(strings.ToLower(strings.TrimSpace(args[0])), Scheme+":") {
		return Link{}, false, false
	}
	l, ok := ParseLink(args[0])
	return l, ok && l.Verb != "" && l.Verb != VerbDiff, !ok
}

// Decided says what l's decision did, for `buildstation open`'s output.
func (l Link) Decided() string {
	switch l.Verb {
	case "allow":
		return "allowed once"
	case "deny":
		return "denied"
	case VerbMerge:
		return "merged"
	}
	return "answered " + l.Answer
}
