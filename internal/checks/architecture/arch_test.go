package architecture

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const mod = "github.com/buildstation/buildstation/"

// rule forbids the packages under from to reach (directly or through any
// other package) a package that starts with one of never. debts are
// arrows that still exist today: forbidden package → why it is still
// reached.
type rule struct {
	from  []string
	never []string
	debts map[string]string
}

var (
	// vocabulary is what every side shares: the task and session types,
	// the board and spawner interfaces, events, notices.
	vocabulary = []string{"supervisor", "supervisor/config", "supervisor/apitype"}
	// engine runs sessions and serves them; only the wiring links it.
	engine = []string{"supervisor/station", "supervisor/agent", "supervisor/api", "supervisor/outbox", "supervisor/source"}
	stores = []string{"supervisor/store", "supervisor/pgstore", "supervisor/boardsql"}
	// wiring is main and internal/wiring with the roles below it (daemon,
	// demo, tray, the board verbs): what links the engine to platform/.
	wiring = []string{mod[:len(mod)-1] + "$", mod + "internal/wiring"}
	// server is what a client of the station must never link. The agent
	// profiles (supervisor/agent) are not in it: they are declarations and
	// texts without OS I/O, and config validation reads their registry.
	server = []string{"supervisor/station", "supervisor/api", "supervisor/store", "supervisor/pgstore", "supervisor/boardsql", "supervisor/outbox", "internal/wiring/boardopen"}
)

func paths(ps ...string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = mod + p
	}
	return out
}

var rules = []rule{
	{
		from: paths(vocabulary...),
		never: append(paths(append(server, "supervisor/client", "platform/", "app", "cli", "internal/noticefollow")...),
			append(wiring, "os/exec", "github.com/modelcontextprotocol/", "fyne.io/")...),
	},
	{
		// The vocabulary itself reads no config: what it decides takes
		// the values it needs (SessionKind.Window takes two windows), so
		// a client linking the vocabulary links no TOML.
		from:  paths("supervisor"),
		never: paths("supervisor/config"),
	},
	{
		from:  paths(engine...),
		never: append(paths("platform/", "app", "cli", "supervisor/store", "supervisor/pgstore", "supervisor/boardsql", "internal/wiring/boardopen"), append(wiring, "fyne.io/")...),
	},
	{
		// Agent profiles and prompts sit below the engine that runs them.
		from:  paths("supervisor/agent"),
		never: paths("supervisor/station", "supervisor/api", "supervisor/outbox"),
	},
	{
		from: paths(stores...),
		never: append(paths("platform/", "app", "cli", "supervisor/station", "supervisor/agent", "supervisor/api", "supervisor/outbox", "internal/wiring/boardopen", "internal/noticefollow"),
			"os/exec", "github.com/modelcontextprotocol/", "fyne.io/"),
		debts: map[string]string{
			"os/exec": "the SQLite driver's C runtime (modernc.org/libc) imports it; the vocabulary no longer does (config takes the machine's defaults from the wiring)",
		},
	},
	{
		// What the two stores share is SQL on the vocabulary: no driver,
		// and neither store, so each store links only its own driver.
		from:  paths("supervisor/boardsql"),
		never: append(paths("supervisor/store", "supervisor/pgstore"), "modernc.org/", "github.com/jackc/"),
	},
	{
		// The API client and its wire types: what every client of the
		// station links, so nothing of the server (MCP, stores) rides along.
		from:  paths("supervisor/client", "supervisor/apitype"),
		never: append(paths(append(server, "platform/", "app", "cli", "internal/noticefollow")...), append(wiring, "github.com/modelcontextprotocol/", "fyne.io/")...),
	},
	{
		from:  paths("platform/..."),
		never: append(paths(append(server, "app", "cli", "internal/noticefollow")...), wiring...),
	},
	{
		// The dashboard and the tray process (app/tray): the OS's pieces
		// (notifier, dashboard process, single instance, browser) are
		// handed in by internal/wiring/tray.
		// They learn the agents' names from the station (GET
		// /v1/agents?known=1), so no config or profile rides along.
		from:  paths("app", "app/tray"),
		never: append(paths(append(server, "platform/", "cli", "supervisor/config", "supervisor/agent")...), append(wiring, "os/exec", "github.com/modelcontextprotocol/")...),
		debts: map[string]string{
			"os/exec": "Fyne's own dialog package and charmbracelet/colorprofile import it; the vocabulary no longer does",
		},
	},
	{
		// The command line is a client: what needs tmux or a board's
		// store (session attach of a tmux session, the board verbs) main
		// hands in through cli.Deps (TmuxAttach, Boards).
		from:  paths("cli"),
		never: append(paths(append(server, "app", "platform/", "internal/noticefollow")...), append(wiring, "fyne.io/", "github.com/modelcontextprotocol/")...),
	},
}

// TestArrowsPointOneWay checks every rule on linux, windows and darwin
// builds, so an arrow in a _windows.go or _darwin.go file counts too.
func TestArrowsPointOneWay(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH to list the packages")
	}
	for _, goos := range []string{"linux", "windows", "darwin"} {
		for _, r := range rules {
			seen := map[string]bool{}
			for _, from := range r.from {
				for _, dep := range deps(t, goos, from) {
					for _, bad := range r.never {
						if !under(dep, bad) {
							continue
						}
						seen[bad] = true
						if _, ok := r.debts[bad]; !ok {
							t.Errorf("%s (GOOS=%s) reaches %s: %s must not reach %s; give it what it needs through an interface or the API", trim(from), goos, trim(dep), trim(from), trim(bad))
						}
					}
				}
			}
			if goos != "linux" {
				continue
			}
			for bad, why := range r.debts {
				if !seen[bad] {
					t.Errorf("%v no longer reach %s: the debt (%s) is paid; remove it from the list", trimAll(r.from), trim(bad), why)
				}
			}
		}
	}
}

// under says whether package p is pattern or below it; a pattern ending
// in "/" is a prefix, one ending in "$" that package alone.
func under(p, pattern string) bool {
	if exact, ok := strings.CutSuffix(pattern, "$"); ok {
		return p == exact
	}
	if strings.HasSuffix(pattern, "/") {
		return strings.HasPrefix(p, pattern)
	}
	return p == pattern || strings.HasPrefix(p, pattern+"/")
}

var cache = map[string][]string{}

// deps lists every package pkg reaches on goos, itself left out.
func deps(t *testing.T, goos, pkg string) []string {
	t.Helper()
	key := goos + " " + pkg
	if d, ok := cache[key]; ok {
		return d
	}
	cmd := exec.Command("go", "list", "-e", "-deps", "-f", "{{.ImportPath}}", pkg)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list -deps %s (GOOS=%s): %v\n%s", pkg, goos, err, msg)
	}
	var d []string
	found := strings.HasSuffix(pkg, "/...")
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		found = found || line == pkg
		if line != "" && line != pkg {
			d = append(d, line)
		}
	}
	if !found {
		// go list -e lists nothing for a misspelt path: a rule over it
		// would pass without checking anything.
		t.Fatalf("%s is not a package (GOOS=%s): fix the rule's path", pkg, goos)
	}
	if strings.HasSuffix(pkg, "/...") {
		// A pattern lists its own packages too: they may reach each other.
		base := strings.TrimSuffix(pkg, "...")
		d = slices.DeleteFunc(d, func(p string) bool { return strings.HasPrefix(p, base) })
	}
	cache[key] = d
	return d
}

func trim(p string) string {
	p = strings.TrimSuffix(p, "$")
	if p == mod[:len(mod)-1] {
		return "the root package (main)"
	}
	return strings.TrimPrefix(p, mod)
}

func trimAll(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = trim(p)
	}
	return out
}

// TestWiringRunsNoWindows: the tray lives in one room. The wiring
// constructs and starts what app/tray runs (the tray process and the
// dashboard process) and hands it platform/desktop's calls; it imports no
// GUI toolkit and no C of its own, so what the tray and the dashboard do
// cannot creep back into it. Direct imports, of the cgo builds that have
// the tray.
func TestWiringRunsNoWindows(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH to list the packages")
	}
	for _, goos := range []string{"linux", "windows", "darwin"} {
		for _, pkg := range append(paths("internal/wiring", "internal/wiring/tray", "internal/wiring/daemon", "internal/wiring/demo"), mod[:len(mod)-1]) {
			cmd := exec.Command("go", "list", "-f", "{{join .Imports \" \"}}", pkg)
			cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=1")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list %s (GOOS=%s): %v", pkg, goos, err)
			}
			for _, imp := range strings.Fields(string(out)) {
				for _, bad := range []string{"fyne.io/", "github.com/go-gl/", "C$"} {
					if under(imp, bad) {
						t.Errorf("%s (GOOS=%s) imports %s: the wiring constructs and starts; what the tray and the dashboard do is app/tray, the OS's window calls platform/desktop", trim(pkg), goos, imp)
					}
				}
			}
		}
	}
}
