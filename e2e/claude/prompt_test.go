//go:build linux

package claude

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
)

// A Claude-profile agent that is a unix script gets its prompt typed into
// its terminal once it says the station's tools are listed (here by the
// hook the MCP server sends), and the bytes that arrive are the prompt's,
// every one: 200 KiB on many lines with " % & ^ ! and CR in them, none of
// it in argv. The script records its raw terminal input, then completes.
func TestPromptBytesReachAUnixScriptAgent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "typed.bin")
	argsOut := filepath.Join(dir, "args.txt")
	script := filepath.Join(dir, "claude")
	// Raw mode: the terminal hands over every byte as typed, CR included;
	// --foreground keeps cat in the terminal's process group, where it may read.
	if err := os.WriteFile(script, []byte(`#!/bin/sh
printf '%s\n' "$@" > "`+argsOut+`"
stty raw -echo
printf '{"hook_event_name":"MCPReady"}' | "$BUILDSTATION_BIN" agent hook
timeout --foreground 10 cat > "`+out+`"
"$BUILDSTATION_BIN" agent complete --summary "read the typed prompt"
sleep 30
`), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := e2erig.GitRepo(t)
	s := startStation(t, fmt.Sprintf(`max_sessions = 1
[defaults]
idle_window = "30s"
block_window = "30s"

[agents.claude]
command = [%q]
profile = "claude"

[[projects]]
name = "web"
path = %q
agent = "claude"
`, script, repo))

	var body strings.Builder
	body.WriteString("first \" % & ^ ! < > | `x` $HOME %PATH% !x!\r\nsecond\rthird\n")
	for i := 0; body.Len() < 200<<10; i++ {
		fmt.Fprintf(&body, "line %05d \" %% & ^ ! ünïcode\n", i)
	}
	bodyFile := filepath.Join(dir, "body.txt")
	if err := os.WriteFile(bodyFile, []byte(body.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	var task e2erig.Task
	s.MustJSON(&task, "task", "add", "--project", "web", "--title", `typed "%&^!"`, "--body-file", bodyFile, "--json")

	const end = "\x1b[201~\r"
	var typed []byte
	s.until("the whole prompt typed", 60*time.Second, nil, task.ID, func() bool {
		typed, _ = os.ReadFile(out)
		return bytes.HasSuffix(typed, []byte(end))
	})
	prompt, err := os.ReadFile(filepath.Join(s.Home, "logs", task.ID+".1.prompt.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(prompt, []byte(body.String()[:40])) {
		t.Fatalf("the prompt file lacks the body: %.200q", prompt)
	}
	// What a terminal can be typed: CRLF and CR as LF, no other control.
	want := "\x1b[200~" + strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(prompt)) + end
	if string(typed) != want {
		i := 0
		for i < len(typed) && i < len(want) && typed[i] == want[i] {
			i++
		}
		t.Fatalf("typed %d bytes, want %d; first difference at %d: got %.60q want %.60q", len(typed), len(want), i, typed[i:], want[i:])
	}
	args, _ := os.ReadFile(argsOut)
	if bytes.Contains(args, []byte("line 00001")) || bytes.Contains(args, []byte("typed")) {
		t.Errorf("the prompt is in argv: %.300q", args)
	}
	s.until("the task done", 30*time.Second, nil, task.ID, func() bool { return s.Task(task.ID).State == "done" })
}
