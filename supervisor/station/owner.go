package station

import (
	"errors"
	"time"
)

// Every goroutine the station starts has an owner that waits for it: a
// session's is counted in st.wg, the supervision tree's parts in the tree,
// and the rest, work no caller waits for, in st.work: gate checks, pushes
// of a task's branches, ending a session after its agent's own call. Run
// returns only once all of it has.
//
// On a stop, in this order:
//   - Run's context ends: st.running ends with it, and so does every gate
//     check still running (gateTimeout). Its build is ended, its checkout
//     removed, and no verdict is kept for its commit (platform/gitwt keeps
//     none for a gate cut short): a build a stop cut short did not fail,
//     and is never recorded as failing. The next check of that commit (the
//     agent's next complete_task, a person's accept, the next nudge on
//     the next start) runs it again. A verdict reached before the stop
//     was kept when it was reached, so none is lost
//     (TestGateCutShortKeepsNoVerdict in platform/gitwt).
//   - The sessions a stop ends are ended and settled (st.wg): each
//     settling writes to the board under st.life, which has not ended.
//   - stopWork waits for the rest of st.work: a push that a settling
//     started carries the task's work to its remote, so another station
//     can go on from it, within stopPushGrace: a remote that does not
//     answer must not keep a service manager waiting past its margin
//     (platform/service StopMargin), which would kill the station before
//     it wrote its state. A push cut short loses nothing: the work stays
//     here and the task pinned here, and the next start pushes it.
//   - st.life ends: nothing the station owns runs any more.

// gateTimeout bounds one gate check the station starts; the gate's own
// timeout (platform/gitwt) is usually shorter.
const gateTimeout = 30 * time.Minute

// stopPushGrace bounds how long a stop waits for pushes still under way
// once its sessions have settled; well inside the 30 s a service manager
// allows past stop_grace.
const stopPushGrace = 15 * time.Second

// errStopping is why work was not started: Run is on its way out.
var errStopping = errors.New("the station is stopping")

// goWork runs f as the station's background work, which Run waits for.
// After the stop it runs nothing and returns false.
func (st *Station) goWork(f func()) bool { return st.work.Go(f) }

// stopWork ends the open-ended work, waits for every goroutine of st.work
// and then ends st.life. Run calls it once its sessions have settled.
func (st *Station) stopWork() {
	st.endRunning()
	cut := time.AfterFunc(stopPushGrace, st.endPushes)
	st.work.Close()
	cut.Stop()
	st.endPushes()
	st.endLife()
}
