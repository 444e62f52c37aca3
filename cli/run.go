package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Version is the build's version: scripts/package.sh and the release set
// it from the tag with -ldflags "-X github.com/buildstation/buildstation/cli.Version=…"
// (fyne package through GOFLAGS). A build without it (go install, go
// build from a clone) says what scripts/version.sh says for that clone:
// the tag on a clean tagged commit, else x.y.z-dev+<commit>.
var Version = devVersion

// devVersion is FyneApp.toml's Version with -dev
// (TestDevVersionIsFyneAppVersion keeps them equal).
const devVersion = "0.1.0-dev"

func init() {
	if Version != devVersion {
		return
	}
	bi, _ := debug.ReadBuildInfo()
	Version = buildVersion(bi)
}

// pseudoVersion matches the go command's pseudo-version tail
// (v0.0.0-20261205044700-4fd9b41a1b2c, v0.3.1-0.20261205044700-4fd9…).
var pseudoVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[-.]\d{14}-[0-9a-f]{12}$`) })

// buildVersion is the version of a build without -X, from what the go
// command stamped: a clean tag as it is, anything else x.y.z-dev+<the
// commit's first 12 hex digits>. A tree that is modified (+dirty) is
// said as the dev form, not as the tag: the build's own generated files
// (the metadata file fyne package writes beside the main package, a .syso) mark it so, and a
// version that named the tag would claim a release it is not.
func buildVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return devVersion
	}
	v := bi.Main.Version
	if strings.HasPrefix(v, "v") && !strings.Contains(v, "+") && !pseudoVersion().MatchString(v) {
		return strings.TrimPrefix(v, "v")
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return devVersion + "+" + s.Value[:12]
		}
	}
	return devVersion
}

// Exit codes of the contract.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// env is one invocation: its streams and the global flags.
type env struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
	home           string // --home, empty for the default
	deps           Deps   // the OS edges main hands in
	// only is the top-level command this invocation runs when it is
	// known before parsing; the groups other than it get no subcommands.
	// Empty: the whole tree (help, completion, documentation).
	only string
}

// Run runs one command line (without the program name) and returns the
// process exit code: 0 ok, 1 failure, 2 bad usage. Errors are printed to
// stderr as one sentence. d are the OS edges main wires in.
func Run(ctx context.Context, d Deps, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-v" || args[0] == "version") {
		// What scripts ask most, answered before the tree is built: the
		// same line cobra's version template and `version` print.
		if _, err := fmt.Fprintf(stdout, "buildstation %s\n", Version); err != nil {
			fmt.Fprintln(stderr, "buildstation: "+textsafe.Line(oneLine(err.Error())))
			return exitFailure
		}
		return exitOK
	}
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, deps: d, only: onlyVerb(args)}
	root := e.root()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	var (
		ue   *usageError
		code *exitCode
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &code):
		return code.code
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "buildstation: "+textsafe.Line(oneLine(ue.msg)))
		return exitUsage
	default:
		// The station's errors may quote board strings.
		fmt.Fprintln(stderr, "buildstation: "+textsafe.Line(oneLine(err.Error())))
		return exitFailure
	}
}

// onlyVerb is the top-level command args run, past --home, when it is a
// plain word that is not help or completion (which walk the whole tree):
// the command line builds that command's group alone. "" when unsure.
func onlyVerb(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--home":
			i++
		case strings.HasPrefix(a, "--home="):
		case a == "" || a[0] == '-' || a == "help" || a == "completion" || strings.HasPrefix(a, "__"):
			return ""
		default:
			return a
		}
	}
	return ""
}

// exitCode ends a run with a code a role chose and already explained.
type exitCode struct{ code int }

func (e *exitCode) Error() string { return fmt.Sprintf("exit %d", e.code) }

// client dials the station of the chosen home.
func (e *env) client() (*client.Client, error) {
	home, err := config.Home(e.home)
	if err != nil {
		return nil, err
	}
	return client.Dial(home)
}
