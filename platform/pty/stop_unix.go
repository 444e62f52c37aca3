//go:build unix

package pty

import (
	"time"

	"github.com/buildstation/buildstation/platform/treekill"
)

// Stop ends the agent's whole tree: SIGTERM to its process group and to
// every other process of its tree, up to grace for the agent to exit, then
// SIGKILL to the group and to every process of the tree still there.
//
// The tree is collected before the first signal: a grandchild that called
// setsid has left the group, and once its parent dies it is reparented to
// init and the walk from the agent no longer finds it.
//
// Stop is idempotent (treekill.Once): later calls return the first call's
// result.
func (p *proc) Stop(grace time.Duration) error {
	return p.stopOnce.Stop(func() error { return p.stop(grace) })
}

func (p *proc) stop(grace time.Duration) error {
	return treekill.Tree{Leader: p.pid, Marker: p.marker}.Stop(grace, p.done)
}
