//go:build linux

package station_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/standin/ntfyapi"
	"github.com/buildstation/buildstation/supervisor/outbox"
)

// askingAgent is a scripted agent that asks through the station's real
// ask path (Claude Code's PermissionRequest hook, `buildstation agent
// hook`): twice, the first left to expire, and runs the second command
// only when a person allowed it.
func askingAgent(t *testing.T, mark string) string {
	script := filepath.Join(t.TempDir(), "agent.sh")
	writeFile(t, script, `#!/bin/sh
ask() { printf '{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"%s"}}' "$1" | buildstation agent hook; }
echo "asking: make first"
first=$(ask "make first")
echo "first answered: $first"
echo "asking: touch ran.txt"
second=$(ask "touch ran.txt")
echo "second answered: $second"
case "$second" in
*'"behavior":"allow"'*) touch "`+mark+`"; buildstation agent complete --summary "ran it" ;;
*) buildstation agent block --reason "not allowed: $second" ;;
esac
sleep 600
`)
	return script
}

// phoneNotices waits for n notices with actions on topic.
func phoneNotices(t *testing.T, ntfy *ntfyapi.Server, topic string, n int) []ntfyapi.Message {
	t.Helper()
	var got []ntfyapi.Message
	rig.Eventually(t, 60*time.Second, func() bool {
		got = nil
		for _, m := range ntfy.Messages(topic) {
			if len(m.Actions) > 0 {
				got = append(got, m)
			}
		}
		return len(got) >= n
	}, fmt.Sprintf("%d phone notices with actions", n))
	return got
}

// A permission a session asks reaches the phone through ntfy with Allow
// once and Deny; the Allow's reply, posted by the phone to the reply topic
// and read by the station from its outbound stream, decides it: the
// command runs and the history says it was allowed from the phone. A
// forged reply, a replayed one and one for an older request decide
// nothing, and the phone's notice is updated in place once answered.
func TestPhoneAllowsAPermission(t *testing.T) {
	t.Parallel()
	ntfy := ntfyapi.New(t)
	ntfy.Token = "tk_e2ephonetoken0001"
	ntfy.AnonWrite = []string{"builds-e2e-reply"}
	mark := filepath.Join(t.TempDir(), "ran")
	cfg := rig.PhoneTOML(t, "web", askingAgent(t, mark), "12s", "60s", ntfy.URL, "builds-e2e", `token_env = "NTFY_TOKEN"`)
	s := rig.StartOn(t, rig.WriteConfig(t, cfg), "NTFY_TOKEN="+ntfy.Token)

	// notify test sends one real notice and says what the service answered.
	if out := s.Must("notify", "test"); !strings.HasPrefix(out, "sent a test notice through ntfy: ntfy took message ") || !strings.Contains(out, "on topic builds-e2e") {
		t.Errorf("notify test said %q", out)
	}
	if ms := ntfy.Messages("builds-e2e"); len(ms) != 1 || ms[0].Title != "Build Station: a test notice" {
		t.Errorf("the test notice: %+v", ms)
	}
	ntfy.Fail(1, http.StatusTooManyRequests)
	if _, stderr, code := s.Run("notify", "test"); code != 1 || !strings.Contains(stderr, "ntfy did not take the test notice: the ntfy server answered 429") {
		t.Errorf("notify test against a refusing server: exit %d, %q", code, stderr)
	}

	id := s.AddTask("web", "release", "")

	notes := phoneNotices(t, ntfy, "builds-e2e", 1)
	older := notes[0]
	if !strings.Contains(older.Message, "make first") {
		t.Errorf("first notice's text %q does not say the request", older.Message)
	}
	if len(older.Actions) != 2 || older.Actions[0].Label != "Allow once" || older.Actions[1].Label != "Deny" ||
		older.Actions[0].Action != "http" || older.Actions[0].URL != ntfy.URL+"/builds-e2e-reply" || older.Priority != 5 || older.SequenceID == "" {
		t.Fatalf("the phone notice: %+v", older)
	}
	if strings.Contains(older.Actions[0].Body, ntfy.Token) || strings.Contains(older.Message, ntfy.Token) {
		t.Error("the notice carries the access token")
	}
	// The first request expires unanswered; the agent asks again.
	// A notice sent again (the service took it, but its answer came too
	// late under load) carries the same sequence id, which a phone shows
	// as one notice: the second request's is the one that says it.
	var newer ntfyapi.Message
	rig.Eventually(t, 60*time.Second, func() bool {
		for _, m := range phoneNotices(t, ntfy, "builds-e2e", 1) {
			if strings.Contains(m.Message, "touch ran.txt") {
				newer = m
				return true
			}
		}
		return false
	}, "the second request's phone notice")
	if newer.SequenceID == older.SequenceID {
		t.Fatalf("second notice %+v has the first's sequence id", newer)
	}

	// The older request's Allow, then a forged one: refused.
	if code, err := ntfyapi.Press(older, "Allow once"); err != nil || code != http.StatusOK {
		t.Fatalf("press the older Allow: %d %v", code, err)
	}
	var forged map[string]string
	if err := json.Unmarshal([]byte(newer.Actions[0].Body), &forged); err != nil {
		t.Fatal(err)
	}
	forged["key"] = strings.Repeat("0", 64)
	body, _ := json.Marshal(forged)
	if resp, err := http.Post(ntfy.URL+"/builds-e2e-reply", "text/plain", bytes.NewReader(body)); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	rig.Eventually(t, 20*time.Second, func() bool {
		l := s.Log.String()
		return strings.Contains(l, "no longer waits") && strings.Contains(l, "wrong key")
	}, "the older and the forged reply refused")
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the command ran before the phone allowed it")
	}

	// The Allow of the request that waits: the command runs.
	if code, err := ntfyapi.Press(newer, "Allow once"); err != nil || code != http.StatusOK {
		t.Fatalf("press Allow: %d %v", code, err)
	}
	task := s.WaitState(id, "done", 30*time.Second)
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	found := false
	for _, h := range task.History {
		if strings.Contains(h.Reason, "allowed from the phone (ntfy): Bash: touch ran.txt") {
			found = true
		}
	}
	if !found {
		t.Errorf("history lacks the phone's decision: %+v", task.History)
	}
	// A replay of the same Allow decides nothing.
	if code, err := ntfyapi.Press(newer, "Allow once"); err != nil || code != http.StatusOK {
		t.Fatalf("replay Allow: %d %v", code, err)
	}
	rig.Eventually(t, 20*time.Second, func() bool { return strings.Count(s.Log.String(), "no longer waits") >= 2 }, "the replay refused")
	if n := strings.Count(s.Log.String(), "a person decided from the phone"); n != 1 {
		t.Errorf("%d decisions from the phone; want 1\n%s", n, rig.Tail(s.Log.String(), 40))
	}
	// The phone's notice of the allowed request now says so (same sequence).
	rig.Eventually(t, 20*time.Second, func() bool {
		for _, m := range ntfy.Notifications("builds-e2e") {
			if m.SequenceID == newer.SequenceID {
				return strings.HasPrefix(m.Title, "Allowed from the phone") && len(m.Actions) == 0
			}
		}
		return false
	}, "the phone's notice updated in place")
}

// In quiet hours a block is held back while a permission, which
// quiet_kinds names, goes out.
func TestPhoneQuietHours(t *testing.T) {
	t.Parallel()
	ntfy := ntfyapi.New(t)
	now := time.Now().UTC()
	quiet := now.Add(-time.Hour).Format("15:04") + "-" + now.Add(2*time.Hour).Format("15:04")
	cfg := rig.ProjectTOML("web", t.TempDir(), "30s", "60s") + rig.PhoneTOML(t, "api", askingAgent(t, filepath.Join(t.TempDir(), "ran")), "30s", "60s", ntfy.URL, "quiet-e2e",
		fmt.Sprintf("quiet = %q", quiet), `quiet_kinds = ["permission"]`)
	s := rig.StartOn(t, rig.WriteConfig(t, cfg), "TZ=UTC")
	blocked := s.AddTask("web", "stuck", "block cannot reach the database")
	s.WaitState(blocked, "blocked", 30*time.Second)
	s.AddTask("api", "release", "")
	phoneNotices(t, ntfy, "quiet-e2e", 1)
	for _, m := range ntfy.Messages("quiet-e2e") {
		if strings.Contains(m.Title, "stuck") || strings.Contains(m.Title, "blocked") {
			t.Errorf("a block went out in quiet hours: %+v", m)
		}
	}
	rig.Eventually(t, 10*time.Second, func() bool { return strings.Contains(s.Log.String(), "held for the end of quiet hours") }, "the block held")
}

// A notice the phone's service refuses (503) is kept in the station's
// outbox and retried; a station that crashes before the service answers
// again sends it when it starts, once. The failing service is said once in
// status (the line and the --json field) and cleared when it answers.
func TestPhoneNoticeKeptThroughARestart(t *testing.T) {
	t.Parallel()
	ntfy := ntfyapi.New(t)
	ntfy.Fail(1000, http.StatusServiceUnavailable)
	// The agent asks once, ever: a second run (after the restart) waits.
	script := rig.AskingAgent(t, "make release", filepath.Join(t.TempDir(), "asked"))
	home := rig.WriteConfig(t, rig.PhoneTOML(t, "web", script, "60s", "120s", ntfy.URL, "kept-e2e"))
	s := rig.StartOn(t, home)
	s.AddTask("web", "release", "")
	rig.Eventually(t, 30*time.Second, func() bool { return strings.Contains(s.Log.String(), "does not take notices") }, "the refused notice kept")
	if n := len(ntfy.Messages("kept-e2e")); n != 0 {
		t.Fatalf("%d messages taken by a refusing server", n)
	}
	s.Kill9()

	ntfy.Fail(0, 0)
	s2 := rig.StartOn(t, home)
	var got []ntfyapi.Message
	rig.Eventually(t, 30*time.Second, func() bool {
		got = nil
		for _, m := range ntfy.Messages("kept-e2e") {
			if strings.Contains(m.Message, "make release") {
				got = append(got, m)
			}
		}
		return len(got) > 0
	}, "the kept notice sent after the restart")
	if len(got[0].Actions) != 2 {
		t.Errorf("the kept notice lost its choices: %+v", got[0])
	}
	if !strings.Contains(s2.Log.String(), "kept from before the station stopped") {
		t.Errorf("the restarted station does not say it sent kept notices:\n%s", rig.Tail(s2.Log.String(), 30))
	}
	// The outbox owes nothing more: no later start sends it again.
	rig.Eventually(t, 10*time.Second, func() bool {
		box, err := outbox.Open(filepath.Join(home, outbox.File))
		if err != nil {
			return false
		}
		defer box.Close()
		owed, err := box.OwedNotes(context.Background())
		return err == nil && len(owed) == 0
	}, "the outbox empty once the service took the notice")
	n := 0
	for _, m := range ntfy.Messages("kept-e2e") {
		if strings.Contains(m.Message, "make release") && m.SequenceID == got[0].SequenceID && len(m.Actions) > 0 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the kept notice arrived %d times; want once", n)
	}
}
