package tmux

import (
	"os"

	"golang.org/x/sys/unix"
)

// exitWatchable says watchExit learns of the agent's exit from the kernel:
// the monitor's look at every pane is then a rare safety net.
const exitWatchable = true

// watchExit calls exited once the pane's process has exited, learned from
// a pidfd in the runtime's poller: no timer and no tmux command while the
// agent runs. It is what settles an exit that tmux leaves unreaped (tmux
// 3.3 under load: the pane's process stays a zombie, the pane is dead
// without a status, and the pane-died hook, which waits for the status,
// never runs). stop ends the watch. ok is false where no pidfd can be
// had (an old kernel, the process gone already).
func watchExit(pid int, exited func()) (stop func(), ok bool) {
	if pid <= 0 {
		return nil, false
	}
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return nil, false
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, false
	}
	go func() {
		asked := false
		// A pidfd turns readable once its process exits; Read parks
		// in the poller until then, or fails once f is closed.
		err := rc.Read(func(uintptr) bool {
			if !asked {
				asked = true
				return false
			}
			return true
		})
		if err == nil {
			exited()
		}
	}()
	return func() { f.Close() }, true
}
