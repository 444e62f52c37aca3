package tmux

import (
	"strings"
)

// launchScript is what a window runs, with /bin/sh, to start the agent
// once its output is tapped. It runs in two phases:
//
//  1. In the tmux server's environment, it waits on the wait-for channel
//     ready, which Spawn signals once the pane's output pipe is its own:
//     output written before that would reach the terminal but not the
//     station, and a short agent would be gone before anyone saw it.
//  2. Then it runs itself again under `env -i` and, with an empty
//     environment, exports spec.Env and execs the agent. A pane's
//     environment is otherwise the tmux server's (whoever started it first)
//     plus its session's; the agent must get exactly the station's spec.
//
// The environment is written into the script, not onto a command line,
// because argv is readable by every user and it holds the session's token.
// Names that sh cannot export (BASH_FUNC_x%%) go through env(1) instead.
func launchScript(tmuxPath, sock, ready, envPath, agentPath string, argv, env []string) string {
	var b strings.Builder
	b.WriteString("# Build Station: starts one agent session in this tmux window.\n")
	b.WriteString("if [ \"$1\" != run ]; then\n")
	b.WriteString("\t" + quote(tmuxPath) + " -S " + quote(sock) + " wait-for " + quote(ready) + " || exit 127\n")
	b.WriteString("\texec " + quote(envPath) + " -i /bin/sh \"$0\" run\n")
	b.WriteString("fi\n")
	var odd []string
	for _, kv := range env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if !shellName(k) {
			odd = append(odd, kv)
			continue
		}
		b.WriteString("export " + quote(kv) + "\n")
	}
	b.WriteString("exec ")
	if len(odd) > 0 {
		b.WriteString(quote(envPath))
		for _, kv := range odd {
			b.WriteString(" " + quote(kv))
		}
		b.WriteString(" ")
	}
	b.WriteString(quote(agentPath))
	for _, a := range argv[1:] {
		b.WriteString(" " + quote(a))
	}
	b.WriteString("\n")
	return b.String()
}

// quote makes s one shell word: single quotes, with any single quote in s
// closed, escaped and reopened.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellName reports whether k is a name sh can export.
func shellName(k string) bool {
	if k == "" || k[0] >= '0' && k[0] <= '9' {
		return false
	}
	for _, c := range k {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// tmuxQuote makes s one argument of a tmux command string (a hook's
// command): double quotes, inside which tmux treats \, " and $ specially.
func tmuxQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`)
	return `"` + r.Replace(s) + `"`
}

// noFormat keeps tmux from expanding #{…} formats in a shell command it
// runs (run-shell and pipe-pane expand them): a path may hold a "#".
func noFormat(s string) string { return strings.ReplaceAll(s, "#", "##") }
