package cli

import (
	"fmt"

	"github.com/buildstation/buildstation/supervisor/config"
)

// attachTmux attaches this terminal to the session's own tmux window when
// the station runs it with the tmux backend: tmux itself is the best
// console for it (scrollback, copy mode, the agent's real screen size).
// ok is false when that does not apply (no such server or window, no tmux,
// or stdin is not a terminal): the caller falls back to the station's
// console API.
func (e *env) attachTmux(id string) (ok bool, err error) {
	if e.deps.TmuxAttach == nil {
		return false, nil
	}
	if _, tty := terminalFd(e.stdin); !tty {
		return false, nil
	}
	home, err := config.Home(e.home)
	if err != nil {
		return false, nil
	}
	return e.deps.TmuxAttach(home, id, e.stdin, e.stdout, e.stderr, func() {
		fmt.Fprintf(e.stderr, "attaching to %s in tmux; press Ctrl-] (or Ctrl-B then D) to detach (the session goes on)\n", id)
	})
}
