package cli

import (
	"strings"
	"testing"
)

// FuzzParseHook feeds arbitrary stdin to the hook reader: it must never
// panic (a panic exits 2, which Claude Code takes as "block this tool"), and
// whatever it accepts has an event name.
func FuzzParseHook(f *testing.F) {
	for _, seed := range []string{
		`{"session_id":"s","cwd":"/x","hook_event_name":"Notification","message":"Claude needs your permission","notification_type":"permission_prompt"}`,
		`{"hook_event_name":"Stop","stop_hook_active":false}`,
		`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a\nb"}}`,
		`{"hook_event_name":""}`, `{}`, `[]`, `null`, `{`, "\x00", `{"hook_event_name":1}`,
		`{"hook_event_name":"UserPromptSubmit","prompt":"` + strings.Repeat("é", 3000) + `"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := parseHook(b)
		if err == nil && strings.TrimSpace(h.Event) == "" {
			t.Fatalf("accepted a hook without an event: %q", b)
		}
		if len(h.Message) > 4096+8 {
			t.Fatalf("message not capped: %d bytes", len(h.Message))
		}
	})
}
