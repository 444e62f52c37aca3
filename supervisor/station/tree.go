package station

import (
	"context"

	"github.com/thejerf/suture/v4"
)

// tree is the station's supervision tree (the shape of syncthing's): the
// scheduler always; on a shared board the heartbeat, the fence and the
// writer of session states too. A part that panics or fails is logged and
// started again, with suture's backoff, while the others and every running
// session go on: a bug in one scheduling pass must not end the agents'
// sessions overnight. Sessions are not in the tree: each has its own
// goroutine, which Run waits for.
func (st *Station) tree() *suture.Supervisor {
	sup := suture.New("station", suture.Spec{EventHook: st.treeEvent})
	sup.Add(st.sched)
	if st.leases != nil {
		sup.Add(st.leases)
		sup.Add(loop{"fence", st.leases.watch})
		sup.Add(st.states)
	}
	return sup
}

// treeEvent logs what the tree did: a part that failed or panicked (and
// is started again), one that would not stop, a backoff.
func (st *Station) treeEvent(e suture.Event) {
	switch e := e.(type) {
	case suture.EventServicePanic:
		st.log.Error("station part panicked; starting it again", "part", e.ServiceName, "panic", e.PanicMsg, "stack", e.Stacktrace)
	case suture.EventServiceTerminate:
		st.log.Error("station part failed; starting it again", "part", e.ServiceName, "err", e.Err)
	default:
		st.log.Warn("station parts", "event", e.String())
	}
}

// loop is a named function served by the tree; it returns when ctx ends.
type loop struct {
	name  string
	serve func(ctx context.Context) error
}

func (l loop) Serve(ctx context.Context) error { return l.serve(ctx) }
func (l loop) String() string                  { return l.name }
