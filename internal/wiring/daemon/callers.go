package daemon

import (
	"net/netip"
	"strings"

	"github.com/buildstation/buildstation/platform/peer"
	"github.com/buildstation/buildstation/platform/proctree"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// sessionCallers places the caller of an operator action (api.Callers):
// the process at the far end of its connection (platform/peer), and
// whether one of its ancestors is the agent of a session this station
// runs. A caller inside a session's tree is that session's even when it
// unset BUILDSTATION_SESSION_ID and BUILDSTATION_TOKEN.
type sessionCallers struct {
	// sessions are this station's own sessions (another station's pids
	// are another machine's).
	sessions func() []supervisor.SessionInfo
	owners   func(client, server netip.AddrPort) ([]int, error)
	table    func() (map[int]proctree.Proc, error)
	// environ is a process's environment as it started (nil: unknown).
	environ func(pid int) []string
}

func newSessionCallers(sessions func() []supervisor.SessionInfo) sessionCallers {
	return sessionCallers{sessions: sessions, owners: peer.Owners, table: proctree.Current,
		environ: func(pid int) []string { return proctree.Environ("", pid) }}
}

// Places reports whether this OS names the process at the far end of a
// connection (platform/peer).
func (c sessionCallers) Places() bool { return peer.Supported }

// Caller is known only when the OS names the processes holding the
// connection and each one's ancestry reads whole up to the first process.
func (c sessionCallers) Caller(local, remote string) (string, bool) {
	server, err1 := netip.ParseAddrPort(local)
	client, err2 := netip.ParseAddrPort(remote)
	if err1 != nil || err2 != nil {
		return "", false
	}
	pids, err := c.owners(client, server)
	if err != nil || len(pids) == 0 {
		return "", false
	}
	roots := map[int]string{}
	for _, s := range c.sessions() {
		if s.PID > 0 {
			roots[s.PID] = s.ID
		}
	}
	procs, err := c.table()
	if err != nil {
		return "", false
	}
	for _, pid := range pids {
		id, whole := sessionOf(pid, procs, roots)
		if id == "" && whole && c.environ != nil {
			id = markedSession(pid, procs, roots, c.environ)
		}
		if id != "" || !whole {
			return id, whole
		}
	}
	return "", true
}

// markedSession is the live session whose variable BUILDSTATION_SESSION_ID
// pid or one of its ancestors started with: a process that left the
// session's tree (setsid -f, nohup … &, a double fork: reparented to init)
// still carries its session's environment, so an agent that escapes the
// tree to send a person's verb is still that session's. A process that
// cleared its environment too (env -i) is not found this way
// (docs/security.md says so).
func markedSession(pid int, procs map[int]proctree.Proc, roots map[int]string, environ func(int) []string) string {
	live := make(map[string]bool, len(roots))
	for _, id := range roots {
		live[id] = true
	}
	for range len(procs) + 1 {
		if pid <= 1 {
			return ""
		}
		for _, kv := range environ(pid) {
			if id, ok := strings.CutPrefix(kv, apitype.EnvSessionID+"="); ok && live[id] {
				return id
			}
		}
		p, ok := procs[pid]
		if !ok {
			return ""
		}
		pid = p.PPID
	}
	return ""
}

// sessionOf walks pid's ancestors up to a session's agent (its id) or the
// first process; whole is false when a link is missing from the table.
func sessionOf(pid int, procs map[int]proctree.Proc, roots map[int]string) (id string, whole bool) {
	for range len(procs) + 1 {
		if id, ok := roots[pid]; ok {
			return id, true
		}
		if pid <= 1 {
			return "", true
		}
		p, ok := procs[pid]
		if !ok {
			return "", false
		}
		pid = p.PPID
	}
	return "", false // a cycle: a table read while pids were reused
}
