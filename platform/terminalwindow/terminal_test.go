package terminalwindow

import (
	"os/exec"
	"testing"
)

func TestAttachCommandQuotes(t *testing.T) {
	cmd := attachCommand("/Applications/Build Station.app/Contents/MacOS/buildstation", "/Users/o'neil/BuildStation", "t3.1")
	want := `exec '/Applications/Build Station.app/Contents/MacOS/buildstation' '--home' '/Users/o'\''neil/BuildStation' 'session' 'attach' 't3.1'`
	if cmd != want {
		t.Fatalf("attachCommand = %s\nwant %s", cmd, want)
	}
	// sh reads it back as the same words.
	out, err := exec.Command("sh", "-c", "set -- "+cmd[len("exec "):]+`; printf '%s\n' "$@"`).Output()
	if err != nil || string(out) != "/Applications/Build Station.app/Contents/MacOS/buildstation\n--home\n/Users/o'neil/BuildStation\nsession\nattach\nt3.1\n" {
		t.Fatalf("sh reads %q (%v)", out, err)
	}
}

func TestAppleScriptEscapes(t *testing.T) {
	got := appleScript(`exec 'a"b\c'`)
	want := "tell application \"Terminal\"\ndo script \"exec 'a\\\"b\\\\c'\"\nactivate\nend tell"
	if got != want {
		t.Fatalf("appleScript = %q, want %q", got, want)
	}
}
