//go:build linux

package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/deeplink"
)

// A Windows toast's Allow once and Deny buttons are buildstation:// links
// that Windows hands to "buildstation open"
// (buildstation://session/ID?do=allow&key=K). Handed such a link, open makes the
// decision as the person who pressed it: the agent's PermissionRequest hook
// gets it. A link whose decision is not one of ours, or that lacks the key
// of the station's token (any web page can open a link), decides nothing. The
// agent is a script whose hook asks, so this runs without Claude Code; the
// link handling is the same on every OS (the toast itself is Windows only).
func TestToastLinkDecides(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "decision.json")
	script := filepath.Join(dir, "agent.sh")
	hook := `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"touch marker"}}`
	if err := os.WriteFile(script, []byte(fmt.Sprintf("#!/bin/sh\nprintf '%%s' '%s' | \"$BUILDSTATION_BIN\" agent hook > %q\nsleep 60\n", hook, out)), 0o755); err != nil {
		t.Fatal(err)
	}
	s := scriptStation(t, script, "")
	id := s.addTask("web", "asks", "x")
	var sess e2erig.Session
	s.until("the session asking", 60*time.Second, nil, id, func() bool {
		var ok bool
		sess, ok = s.SessionOf(id)
		return ok && sess.WaitingOn != nil
	})

	for _, bad := range []string{"buildstation://session/" + sess.ID + "?do=run", "buildstation://session/" + sess.ID + "?do=allow&note=x"} {
		if _, stderr, code := s.Run("open", bad); code != 2 || !strings.Contains(stderr, "not a Build Station link") {
			t.Errorf("open %s: exit %d, %q; want 2 and a refusal", bad, code, stderr)
		}
	}
	if s, _ := s.SessionOf(id); s.WaitingOn == nil {
		t.Fatal("a refused link decided the request")
	}

	// Any web page or program can open a buildstation:// link: one
	// without the key of this station's token decides nothing (before,
	// this link allowed the request).
	if _, stderr, _ := s.Run("open", "buildstation://session/"+sess.ID+"?do=allow"); !strings.Contains(stderr, "decides nothing") {
		t.Errorf("open of a link without the station's key said %q; want that it decides nothing", stderr)
	}
	if s, _ := s.SessionOf(id); s.WaitingOn == nil {
		t.Fatal("a link without the station's key decided the request")
	}

	tok, err := os.ReadFile(filepath.Join(s.Home, "token"))
	if err != nil {
		t.Fatal(err)
	}
	allow := deeplink.Link{SessionID: sess.ID, Verb: "allow", Request: sess.WaitingOn.ID}
	allow.Key = deeplink.DecisionKey(strings.TrimSpace(string(tok)), allow)
	stdout := s.Must("open", allow.String())
	if !strings.Contains(stdout, "allowed once") {
		t.Errorf("open with the Allow link said %q", stdout)
	}
	s.until("the hook's decision", 30*time.Second, nil, id, func() bool {
		data, _ := os.ReadFile(out)
		return strings.Contains(string(data), `"behavior":"allow"`)
	})
	hist := s.Must("task", "show", id, "--json")
	if !strings.Contains(hist, "allowed once Bash: touch marker") || !strings.Contains(hist, "person") {
		t.Errorf("the history lacks the person's decision:\n%s", hist)
	}
}
