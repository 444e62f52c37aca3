package rig

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// AskingAgent writes an sh agent that asks for a permission to run
// command, as Claude Code's PermissionRequest hook does (`buildstation
// agent hook`), then waits. With once (a file's path) it asks only on its
// first run: a second run (after a restart) waits without asking. It
// returns the script's path.
func AskingAgent(t *testing.T, command, once string) string {
	t.Helper()
	guard := ""
	if once != "" {
		guard = fmt.Sprintf("if [ -e %q ]; then sleep 600; fi\ntouch %q\n", once, once)
	}
	script := filepath.Join(t.TempDir(), "agent.sh")
	body := fmt.Sprintf("#!/bin/sh\n%sprintf '{\"hook_event_name\":\"PermissionRequest\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"%s\"}}' | buildstation agent hook\nsleep 600\n", guard, command)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// PhoneTOML is config.toml's project name, in a folder of its own, whose
// agent is `sh script`, and a [phone] section sending notices to the ntfy
// server at url on topic; extra lines go into [phone] as they are.
func PhoneTOML(t *testing.T, name, script, idle, block, url, topic string, extra ...string) string {
	t.Helper()
	s := fmt.Sprintf("\n[[projects]]\nname = %q\npath = %q\ncommand = [\"sh\", %q]\nidle_window = %q\nblock_window = %q\n\n[phone]\nservice = \"ntfy\"\nurl = %q\ntopic = %q\n",
		name, t.TempDir(), script, idle, block, url, topic)
	for _, l := range extra {
		s += l + "\n"
	}
	return s
}
