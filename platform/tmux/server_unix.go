//go:build unix

package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// errNoServer is what tmux says, one way or another, when nothing listens
// on the socket: every window is gone.
var errNoServer = errors.New("tmux server not running")

// tmuxPath finds the tmux binary on the station's PATH.
func tmuxPath() (string, error) {
	p, err := exec.LookPath("tmux")
	if err != nil {
		return "", fmt.Errorf("tmux backend: %w; install tmux or set backend = \"pty\" in config.toml", err)
	}
	return p, nil
}

// run runs one tmux command list on the station's server and returns its
// standard output.
func (s *Spawner) run(ctx context.Context, args ...string) (string, error) {
	bin, err := tmuxPath()
	if err != nil {
		return "", err
	}
	s.execs.Add(1)
	cmd := exec.CommandContext(ctx, bin, append([]string{"-S", s.sock}, args...)...)
	cmd.Env = clientEnv()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if noServer(msg) {
			return "", errNoServer
		}
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("tmux %s: %s", args[0], msg)
	}
	return out.String(), nil
}

// noServer reports whether a tmux error means nothing listens on the
// socket (its wording differs between versions).
func noServer(msg string) bool {
	for _, m := range []string{"no server running", "error connecting to", "server exited", "lost server"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// missing reports whether a tmux error says a target does not exist.
func missing(err error) bool {
	if errors.Is(err, errNoServer) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "can't find") || strings.Contains(msg, "no such")
}

// clientEnv is the station's environment without TMUX and TMUX_PANE: a
// station started inside someone's tmux must still talk to its own server
// (-S does that) and not be refused as nesting. Nor does it carry a
// session's identity (apitype.SessionIdentity): the server it starts
// serves every session, and ending the one whose token it carried would
// end it too.
func clientEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name == "TMUX" || name == "TMUX_PANE" || slices.Contains(apitype.SessionIdentity, name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// historyLimit is the scrollback tmux keeps per window, in lines. It is
// most of what a window costs (measured: 20,000 lines made 1.9 MiB per idle
// session that had printed 300 KB, 1,000 lines 0.34–0.68 MiB, 500 lines
// half that: make bench's memory per added session); the station keeps
// the session's output in its own ring and transcript (`buildstation
// logs`), so the window keeps what a person attaching scrolls back
// through at a glance: a dozen screens.
const historyLimit = 500

// quietStatus stops the status line's timer in the station's session:
// tmux runs one for every client attached to it, the monitor's control
// client included, waking the server every status-interval (15 s, or
// whatever a person's tmux.conf says) to look at every window and poll
// every pane: the server's only idle work (measured: 4 wake-ups a minute,
// about 5 ms of CPU a minute at 100 sessions). The status line itself
// stays; it is redrawn on every change, only its clock would stand still,
// so Attach lifts this for as long as a person is attached.
var quietStatus = []string{"set-option", "-t", "=" + SessionName + ":", "status-interval", "0"}

// ensureSession starts the server and its session if they are not there.
// The session keeps a placeholder window so that it (and the server)
// outlives the last agent window; a person attaching sees how to move
// between windows.
func (s *Spawner) ensureSession(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.run(ctx, "has-session", "-t", "="+SessionName); err == nil {
		return nil
	}
	if err := os.MkdirAll(s.runDir(), 0o700); err != nil {
		return fmt.Errorf("tmux backend: %w", err)
	}
	// The status timer stops when the monitor's client comes (diedHook).
	args := []string{"new-session", "-d", "-s", SessionName, "-n", "station", "-x", fmt.Sprint(DefaultCols), "-y", fmt.Sprint(DefaultRows),
		"sh", "-c", "echo 'Build Station sessions run in the other windows of this tmux session: C-b w lists them, C-b d detaches.'; while :; do sleep 86400; done",
		";", "set-option", "-g", "history-limit", strconv.Itoa(historyLimit),
		// An agent's pane stays after it exits so its status can be read;
		// the station kills the window once it has.
		";", "set-option", "-gw", "remain-on-exit", "on",
		// The window's name is the session id, which `session attach`
		// looks for: neither tmux nor the agent may rename it.
		";", "set-option", "-gw", "automatic-rename", "off",
		";", "set-option", "-gw", "allow-rename", "off",
	}
	_, err := s.run(ctx, args...)
	if err != nil && !strings.Contains(err.Error(), "duplicate session") {
		return fmt.Errorf("start tmux server on %s: %w", s.sock, err)
	}
	return nil
}
