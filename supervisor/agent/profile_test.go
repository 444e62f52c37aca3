package agent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestAgentLaunch(t *testing.T) {
	// A token in the station's own environment must not leak into what a
	// profile writes: files and argv name it, never hold it.
	const secret = "tok-0123456789abcdef"
	t.Setenv("BUILDSTATION_TOKEN", secret)
	// Every byte argv cannot carry well: a NUL, line breaks, cmd.exe's
	// specials, a leading "-". None of it may reach argv.
	const prompt = "--fix the bug\r\nthen commit \" % & ^ ! \x00 done"
	const pointer = "Your task is in the file /home/u/.buildstation/logs/s1.prompt.md (also named by $BUILDSTATION_PROMPT_FILE): read all of it first, then do what it says."
	// Codex's PermissionRequest hook, as -c takes it (a TOML inline value).
	const codexHooks = `-c | features.codex_hooks=true | -c | hooks.PermissionRequest=[{hooks=[{type="command",command="\"/opt/Build Station/buildstation\" agent hook",timeout=3660}]}] | `
	tools := "mcp__buildstation__get_task mcp__buildstation__report_progress mcp__buildstation__set_status " +
		"mcp__buildstation__complete_task mcp__buildstation__block_task mcp__buildstation__complete_review"

	tests := []struct {
		name    string
		agent   Agent
		mode    string
		argv    string // argv joined by " | ", with the logs dir as DIR
		env     []string
		files   map[string]string // file suffix → exact contents
		noFiles bool
		typed   string // what the station types as the first message
	}{
		{
			name:  "claude",
			agent: Agent{Command: []string{"claude"}, Args: []string{"--model", "opus"}, Profile: "claude"},
			argv: "claude | --model | opus | --mcp-config | DIR/s1.mcp.json | --strict-mcp-config | --allowedTools | " +
				strings.ReplaceAll(tools, " ", " | ") + " | --settings | DIR/s1.settings.json",
			env:   []string{"ENABLE_TOOL_SEARCH=false"},
			typed: prompt,
			files: map[string]string{
				".mcp.json": `{
  "mcpServers": {
    "buildstation": {
      "headers": {
        "Authorization": "Bearer ${BUILDSTATION_TOKEN}"
      },
      "type": "http",
      "url": "http://127.0.0.1:4242/mcp"
    }
  }
}
`,
				".settings.json": claudeSettingsWant(`"/opt/Build Station/buildstation" agent hook`),
			},
		},
		{
			name:  "claude with a permission mode",
			agent: Agent{Command: []string{"claude"}, Profile: "claude"},
			mode:  "default",
			argv: "claude | --mcp-config | DIR/s1.mcp.json | --strict-mcp-config | --allowedTools | " +
				strings.ReplaceAll(tools, " ", " | ") + " | --settings | DIR/s1.settings.json | --permission-mode | default",
			env:   []string{"ENABLE_TOOL_SEARCH=false"},
			typed: prompt,
		},
		{
			name:  "codex",
			agent: Agent{Command: []string{"codex"}, Profile: "codex"},
			argv: `codex | -c | mcp_servers.buildstation.url="http://127.0.0.1:4242/mcp" | ` +
				`-c | mcp_servers.buildstation.bearer_token_env_var="BUILDSTATION_TOKEN" | ` + codexHooks + `-- | ` + pointer,
			noFiles: true,
		},
		{
			name:  "codex bypassing permissions",
			agent: Agent{Command: []string{"codex"}, Profile: "codex"},
			mode:  "bypassPermissions",
			argv: `codex | -c | mcp_servers.buildstation.url="http://127.0.0.1:4242/mcp" | ` +
				`-c | mcp_servers.buildstation.bearer_token_env_var="BUILDSTATION_TOKEN" | ` + codexHooks +
				`--dangerously-bypass-approvals-and-sandbox | -- | ` + pointer,
			noFiles: true,
		},
		{
			name:  "gemini",
			agent: Agent{Command: []string{"gemini"}, Profile: "gemini"},
			mode:  "acceptEdits",
			argv:  "gemini | --approval-mode=auto_edit | --prompt-interactive=" + pointer,
			env:   []string{"GEMINI_CLI_SYSTEM_DEFAULTS_PATH=DIR/s1.settings.json"},
			files: map[string]string{".settings.json": `{
  "mcpServers": {
    "buildstation": {
      "headers": {
        "Authorization": "Bearer ${BUILDSTATION_TOKEN}"
      },
      "httpUrl": "http://127.0.0.1:4242/mcp",
      "trust": true
    }
  }
}
`},
		},
		{
			name:    "generic",
			agent:   Agent{Command: []string{"sh", "agent.sh"}, Args: []string{"-x"}, Profile: "generic"},
			mode:    "default",
			argv:    "sh | agent.sh | -x",
			noFiles: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			l, err := Build(LaunchSpec{Agent: tc.agent, PermissionMode: tc.mode, SessionID: "s1",
				URL: "http://127.0.0.1:4242", Self: "/opt/Build Station/buildstation", Prompt: prompt,
				WriteFile: func(name string, data []byte) (string, error) {
					path := filepath.Join(dir, name)
					return path, os.WriteFile(path, data, 0o600)
				},
				PromptFile: "/home/u/.buildstation/logs/s1.prompt.md"})
			if err != nil {
				t.Fatal(err)
			}
			undir := func(s string) string { return strings.ReplaceAll(s, dir, "DIR") }
			if got := undir(strings.Join(l.Argv, " | ")); got != tc.argv {
				t.Errorf("argv\n got %s\nwant %s", got, tc.argv)
			}
			var env []string
			for _, e := range l.Env {
				env = append(env, undir(e))
			}
			if !slices.Equal(env, tc.env) {
				t.Errorf("env = %q, want %q", env, tc.env)
			}
			if i := slices.Index(l.Argv, "--"); i >= 0 && i != len(l.Argv)-2 {
				t.Errorf("the prompt must be the one argument after --: %q", l.Argv)
			}
			if l.Type != tc.typed || l.TypeAfterMCP != (tc.typed != "") {
				t.Errorf("typed %q (after MCP %v), want %q", l.Type, l.TypeAfterMCP, tc.typed)
			}
			for _, a := range l.Argv {
				if strings.ContainsAny(a, "\x00\r\n") || strings.Contains(a, "fix the bug") {
					t.Errorf("argv holds the prompt or a byte argv cannot carry: %q", a)
				}
				if strings.Contains(a, secret) {
					t.Errorf("argv holds the token: %q", a)
				}
			}
			entries, _ := os.ReadDir(dir)
			if tc.noFiles && len(entries) > 0 {
				t.Errorf("wrote %d files, want none", len(entries))
			}
			for _, e := range entries {
				path := filepath.Join(dir, e.Name())
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(data), secret) {
					t.Errorf("%s holds the token", e.Name())
				}
				if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
					t.Errorf("%s mode %v, want 0600", e.Name(), fi.Mode().Perm())
				}
				if !strings.HasPrefix(e.Name(), "s1.") {
					t.Errorf("file %s is not named after the session", e.Name())
				}
			}
			for suffix, want := range tc.files {
				data, err := os.ReadFile(filepath.Join(dir, "s1"+suffix))
				if err != nil {
					t.Fatal(err)
				}
				if string(data) != want {
					t.Errorf("%s\n got %s\nwant %s", suffix, data, want)
				}
			}
		})
	}
}

// claudeSettingsWant is the hooks file: every event runs the same command.
func claudeSettingsWant(command string) string {
	var b strings.Builder
	b.WriteString("{\n  \"hooks\": {\n")
	events := slices.Sorted(slices.Values(claudeHookEvents)) // JSON maps encode sorted
	for i, ev := range events {
		b.WriteString("    \"" + ev + "\": [\n      {\n        \"hooks\": [\n          {\n")
		b.WriteString("            \"command\": " + jsonString(command) + ",\n")
		if ev == "PermissionRequest" {
			// The station ends a request's wait, never the agent.
			b.WriteString("            \"timeout\": 3660,\n")
		}
		b.WriteString("            \"type\": \"command\"\n          }\n        ]\n      }\n    ]")
		if i < len(events)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

func TestHookCommandQuotesForAShell(t *testing.T) {
	tests := map[string]string{
		"/usr/local/bin/buildstation":           `"/usr/local/bin/buildstation" agent hook`,
		"/Users/a b/Build Station/buildstation": `"/Users/a b/Build Station/buildstation" agent hook`,
		`/tmp/we"ird/$HOME/` + "`x`":            `"/tmp/we\"ird/\$HOME/` + "\\`x\\`" + `" agent hook`,
		`C:\Program Files\BuildStation\bs.exe`:  `"C:\\Program Files\\BuildStation\\bs.exe" agent hook`,
	}
	for in, want := range tests {
		if got := hookCommand(in); got != want {
			t.Errorf("hookCommand(%q) = %s, want %s", in, got, want)
		}
	}
}
