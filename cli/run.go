package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Version is the build's version; main may override it with
// -ldflags "-X github.com/buildstation/buildstation/cli.Version=…".
var Version = "0.1.0-dev"

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
}

// Run runs one command line (without the program name) and returns the
// process exit code: 0 ok, 1 failure, 2 bad usage. Errors are printed to
// stderr as one sentence.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	err := e.dispatch(args)
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "buildstation: "+textsafe.Line(oneLine(ue.msg)))
		return exitUsage
	default:
		// The station's errors may quote board strings.
		fmt.Fprintln(stderr, "buildstation: "+textsafe.Line(oneLine(err.Error())))
		return exitFailure
	}
}

// group is a verb with sub-verbs (task, session, project, agent).
type group map[string]func(*env, []string) error

var groups = map[string]group{
	"task": {
		"add": (*env).taskAdd, "ls": (*env).taskLs, "show": (*env).taskShow,
		"requeue": (*env).taskRequeue, "cancel": (*env).taskCancel,
	},
	"session": {"ls": (*env).sessionLs, "attach": (*env).sessionAttach, "send": (*env).sessionSend},
	"board":   {"migrate": (*env).boardMigrate, "status": (*env).boardStatus},
	"project": {"ls": (*env).projectLs, "pause": (*env).projectPause, "resume": (*env).projectResume, "set": (*env).projectSet},
	"agent": {
		"complete": (*env).agentComplete, "block": (*env).agentBlock,
		"progress": (*env).agentProgress, "status": (*env).agentStatus,
		"hook": (*env).agentHook, "review": (*env).agentReview,
	},
}

var singles = map[string]func(*env, []string) error{
	"status":  (*env).status,
	"version": (*env).version,
}

// commandList is what an unknown verb's error offers, the binary's verbs
// (main runs daemon, demo, service and open itself).
const commandList = "task, session, project, status, board, agent, version, daemon, demo, service, open"

func (e *env) dispatch(args []string) error {
	args, err := e.globals(args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return usagef("a command is missing; use one of %s", commandList)
	}
	verb, rest := args[0], args[1:]
	switch verb {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(e.stdout, usageText)
		return errHelp
	}
	if run, ok := singles[verb]; ok {
		return run(e, rest)
	}
	g, ok := groups[verb]
	if !ok {
		return usagef("unknown command %q; use one of %s", verb, commandList)
	}
	rest, err = e.globals(rest)
	if err != nil {
		return err
	}
	subs := sortedKeys(g)
	if len(rest) == 0 {
		return usagef("%s needs a subcommand: %s", verb, strings.Join(subs, ", "))
	}
	run, ok := g[rest[0]]
	if !ok {
		if isHelp(rest[0]) {
			fmt.Fprint(e.stdout, usageText)
			return errHelp
		}
		return usagef("unknown command %q; use one of %s", verb+" "+rest[0], verb+" "+strings.Join(subs, ", "+verb+" "))
	}
	return run(e, rest[1:])
}

// globals consumes leading --home flags (before the verb or the sub-verb);
// after the verb, every command's own flag set accepts --home too.
func (e *env) globals(args []string) ([]string, error) {
	for len(args) > 0 {
		a := args[0]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "home" {
			return args, nil
		}
		if !hasVal {
			if len(args) < 2 {
				return nil, usagef("--home needs a folder")
			}
			val, args = args[1], args[1:]
		}
		e.home, args = val, args[1:]
	}
	return args, nil
}

// client dials the station of the chosen home.
func (e *env) client() (*api.Client, error) {
	home, err := config.Home(e.home)
	if err != nil {
		return nil, err
	}
	return api.Dial(home)
}

func (e *env) version(args []string) error {
	if _, err := e.parse("version", args, 0, 0); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "buildstation "+Version)
	return nil
}

func isHelp(a string) bool { return a == "-h" || a == "-help" || a == "--help" || a == "help" }
