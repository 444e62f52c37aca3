package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/platform/tmux"
	"github.com/buildstation/buildstation/supervisor/config"
)

// attachTmux attaches this terminal to the session's own tmux window when
// the station runs it with the tmux backend: tmux itself is the best
// console for it (scrollback, copy mode, the agent's real screen size).
// The station names each window after its session, on a server whose
// socket is in the home. ok is false when that does not apply (no such
// server or window, no tmux, or stdin is not a terminal): the caller falls
// back to the station's console API.
func (e *env) attachTmux(id string) (ok bool, err error) {
	if _, tty := terminalFd(e.stdin); !tty {
		return false, nil
	}
	home, err := config.Home(e.home)
	if err != nil {
		return false, nil
	}
	sock := filepath.Join(home, tmux.SocketName)
	if _, err := os.Stat(sock); err != nil {
		return false, nil
	}
	bin, err := exec.LookPath("tmux")
	if err != nil {
		return false, nil
	}
	list := exec.Command(bin, "-S", sock, "list-windows", "-t", "="+tmux.SessionName, "-F", "#{window_id} #{window_name}")
	list.Env = withoutTmux(os.Environ())
	out, err := list.Output()
	if err != nil {
		return false, nil
	}
	window := ""
	for _, line := range strings.Split(string(out), "\n") {
		if wid, name, ok := strings.Cut(line, " "); ok && name == id {
			window = wid
		}
	}
	if window == "" {
		return false, nil
	}
	// The detach key is the same on both backends: Ctrl-] detaches this
	// client rather than reaching the agent (the station types with
	// send-keys, never through a client, so only people's keys meet it).
	bind := exec.Command(bin, "-S", sock, "bind-key", "-n", "C-]", "detach-client")
	bind.Env = withoutTmux(os.Environ())
	if out, err := bind.CombinedOutput(); err != nil {
		return true, fmt.Errorf("tmux: set Ctrl-] to detach: %v: %s; attach with tmux -S %s attach", err, strings.TrimSpace(string(out)), sock)
	}
	fmt.Fprintf(e.stderr, "attaching to %s in tmux; press Ctrl-] (or Ctrl-B then D) to detach (the session goes on)\n", id)
	cmd := exec.Command(bin, "-S", sock, "attach-session", "-t", tmux.SessionName+":"+window)
	// Attaching from inside another tmux is allowed: the user asked.
	cmd.Env = withoutTmux(os.Environ())
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	if err := cmd.Run(); err != nil {
		return true, fmt.Errorf("tmux attach to session %s: %v; try again, or stop the station's tmux clients", id, err)
	}
	return true, nil
}

// withoutTmux drops TMUX and TMUX_PANE, which make tmux refuse to nest.
func withoutTmux(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			out = append(out, kv)
		}
	}
	return out
}
