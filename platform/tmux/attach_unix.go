//go:build unix

package tmux

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Attach attaches a person's terminal (stdin, stdout, stderr) to session
// id's own window on the tmux server of the station in home: tmux itself
// is the best console for it (scrollback, copy mode, the agent's real
// screen size). The station names each window after its session. found is
// false when that does not apply (no server in home, no such window, no
// tmux): the caller falls back to the station's console API. attaching
// runs just before tmux takes the terminal, for the caller to say how to
// detach. It is the CLI's `session attach` (cli.Deps.TmuxAttach), which runs no
// tmux of its own.
func Attach(home, id string, stdin io.Reader, stdout, stderr io.Writer, attaching func()) (found bool, err error) {
	sock := filepath.Join(home, SocketName)
	if _, err := os.Stat(sock); err != nil {
		return false, nil
	}
	bin, err := tmuxPath()
	if err != nil {
		return false, nil
	}
	window := findWindow(bin, sock, id)
	if window == "" {
		return false, nil
	}
	// The detach key is the same on both backends: Ctrl-] detaches this
	// client rather than reaching the agent (the station types with
	// send-keys, never through a client, so only people's keys meet it).
	bind := exec.Command(bin, "-S", sock, "bind-key", "-n", "C-]", "detach-client")
	bind.Env = clientEnv()
	if out, err := bind.CombinedOutput(); err != nil {
		return true, fmt.Errorf("tmux: set Ctrl-] to detach: %v: %s; attach with tmux -S %s attach", err, strings.TrimSpace(string(out)), sock)
	}
	// The status line's clock ticks while a person looks (quietStatus
	// stops it for the station's own client), as in any tmux session.
	_ = tmuxCmd(bin, sock, "set-option", "-u", "-t", "="+SessionName+":", "status-interval").Run()
	defer quietAgain(bin, sock)
	if attaching != nil {
		attaching()
	}
	cmd := tmuxCmd(bin, sock, "attach-session", "-t", SessionName+":"+window)
	// Attaching from inside another tmux is allowed: the person asked.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if err := cmd.Run(); err != nil {
		return true, fmt.Errorf("tmux attach to session %s: %v; try again, or stop the station's tmux clients", id, err)
	}
	return true, nil
}

// quietAgain stops the status timer again (quietStatus) once no person's
// client is attached to the station's session.
func quietAgain(bin, sock string) {
	out, err := tmuxCmd(bin, sock, "list-clients", "-t", "="+SessionName, "-F", "#{client_control}").Output()
	if err != nil || strings.Contains(string(out), "0") {
		return // no server, or someone still looks
	}
	_ = tmuxCmd(bin, sock, quietStatus...).Run()
}

// tmuxCmd is a tmux command on the station's server on sock.
func tmuxCmd(bin, sock string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, append([]string{"-S", sock}, args...)...)
	cmd.Env = clientEnv()
	return cmd
}

// findWindow is the id of the window named id in the station's tmux
// session on sock, or "" when there is none (or no server answers).
func findWindow(bin, sock, id string) string {
	list := exec.Command(bin, "-S", sock, "list-windows", "-t", "="+SessionName, "-F", "#{window_id} #{window_name}")
	list.Env = clientEnv()
	out, err := list.Output()
	if err != nil {
		return ""
	}
	window := ""
	for line := range strings.SplitSeq(string(out), "\n") {
		if wid, name, ok := strings.Cut(line, " "); ok && name == id {
			window = wid
		}
	}
	return window
}
