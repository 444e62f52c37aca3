package terminalwindow

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/platform/tmux"
)

// Open opens Terminal.app attached to the session's tmux window; ok is
// false when the session does not run in tmux (the caller shows its own
// console instead).
func Open(self, home, sessionID string) (ok bool, err error) {
	sock := filepath.Join(home, tmux.SocketName)
	if _, err := os.Stat(sock); err != nil {
		return false, nil
	}
	out, err := childproc.Command("tmux", "-S", sock, "list-windows", "-t", "="+tmux.SessionName, "-F", "#{window_name}").Output()
	if err != nil || !hasLine(string(out), sessionID) {
		return false, nil
	}
	if err := childproc.Command("osascript", "-e", appleScript(attachCommand(self, home, sessionID))).Run(); err != nil {
		return true, fmt.Errorf("open Terminal.app on session %s: %w", sessionID, err)
	}
	return true, nil
}

func hasLine(out, want string) bool {
	for _, l := range strings.Split(out, "\n") {
		if l == want {
			return true
		}
	}
	return false
}
