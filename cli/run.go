package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Version is the build's version: scripts/package.sh and the release set
// it from the tag with -ldflags "-X github.com/buildstation/buildstation/cli.Version=…";
// a build without (fyne package's, go install's) takes the version the go
// command stamped from the module or the tag, when it stamped one.
var Version = devVersion

const devVersion = "0.1.0-dev"

func init() {
	if Version != devVersion {
		return
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := stampedVersion(bi.Main.Version); v != "" {
			Version = v
		}
	}
}

// stampedVersion is a module version the go command stamped ("v0.3.0",
// or a pseudo-version after it) without its v; "" for "(devel)" or none.
func stampedVersion(v string) string {
	if !strings.HasPrefix(v, "v") || v == "(devel)" {
		return ""
	}
	return strings.TrimPrefix(v, "v")
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
}

// Run runs one command line (without the program name) and returns the
// process exit code: 0 ok, 1 failure, 2 bad usage. Errors are printed to
// stderr as one sentence. d are the OS edges main wires in.
func Run(ctx context.Context, d Deps, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, deps: d}
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
