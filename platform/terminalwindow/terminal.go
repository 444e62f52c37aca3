package terminalwindow

import "strings"

// attachCommand is the shell command a terminal runs to attach to a
// session, each word quoted for sh.
func attachCommand(self, home, sessionID string) string {
	words := []string{self, "--home", home, "session", "attach", sessionID}
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return "exec " + strings.Join(words, " ")
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// appleScript builds the script that makes Terminal.app run cmd.
func appleScript(cmd string) string {
	q := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(cmd)
	return `tell application "Terminal"` + "\n" + `do script "` + q + `"` + "\n" + `activate` + "\n" + `end tell`
}
