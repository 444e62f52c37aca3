package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

// The hook runs inside the agent's own turn, so it must never get in the
// agent's way: Claude Code reads exit code 2 as "block this tool call" (and,
// for Stop, "keep going"), adds a SessionStart or UserPromptSubmit hook's
// stdout to the model's context, and waits for the hook to end. Any other
// non-zero exit is a "non-blocking error": Claude Code notes it and goes
// on, and for a PermissionRequest it shows its own dialog (nothing is
// allowed). So agent hook prints nothing on stdout, answers within
// hookTimeout, tries a report the station did not take a few times
// (hookTries), and when it still was not taken — or could not be sent —
// exits 1 with one line on stderr: a lost report is never silent, and
// never 2.

// hookTimeout bounds the whole call to the station: a hook holds up the
// agent's turn, and a lost sign of life costs less than a stalled agent.
const hookTimeout = 5 * time.Second

// hookTries and hookPause bound the tries of a report the station did
// not take (busy, or its connection closed): three, within about a
// second of pauses, inside hookTimeout.
const hookTries = 3

var hookPause = 200 * time.Millisecond

// maxHookInput is the most hook JSON read. A PostToolUse hook carries the
// tool's whole output, which may be large; the station needs four short
// fields of it.
const maxHookInput = 16 << 20

// maxHookMessage caps the message forwarded: a notification is one line,
// and the station's request limit must never be what fails a hook.
const maxHookMessage = 4 << 10

// agentHookOptions are `agent hook`'s: it takes no arguments, but is
// given whatever the agent passes (never a usage error, exit 2).
type agentHookOptions struct {
	*env
	Args []string
}

func init() { subcommand("agent", newAgentHookCmd) }

func newAgentHookCmd(e *env, runF func(*agentHookOptions) error) *cobra.Command {
	o := &agentHookOptions{env: e}
	return &cobra.Command{Use: "hook", Short: "Forward an agent CLI's hook event (JSON on stdin); exits 1 if not taken",
		Long: `Forward one hook event of an agent CLI (Claude Code's SessionStart, Stop,
Notification, …) to the station: one JSON object on stdin. It never gets in
the agent's way: it prints nothing on stdout and answers within 5s. A report
the station did not take (busy, not answering) is tried 3 times; if it still
was not taken, or could not be sent, it exits 1 with one line on stderr
(never 2, which Claude Code reads as "block this tool call").`,
		Example:            `  echo '{"hook_event_name":"Stop"}' | buildstation agent hook`,
		DisableFlagParsing: true, // it must never exit 2 (a usage error), whatever it is given
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
				return c.Help()
			}
			o.Args = args
			return runE(o, nil, runF, agentHookRun)(c, args)
		}}
}

func agentHookRun(o *agentHookOptions) error {
	e, args := o.env, o.Args
	// A panic would exit 2, the one code that blocks the agent's tool call.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintln(e.stderr, oneLine(fmt.Sprintf("buildstation agent hook: internal error: %v", r)))
		}
	}()
	if err := e.sendHook(args); err != nil {
		fmt.Fprintln(e.stderr, "buildstation agent hook: "+oneLine(err.Error()))
		return &exitCode{code: exitFailure}
	}
	return nil
}

// retryHook calls send up to hookTries times while the station did not
// take the report for want of room (a 503, a connection it closed) or
// could not be reached, pausing a little longer each time; a refusal
// (the session ended, a bad request) is not tried again.
func retryHook(ctx context.Context, send func(context.Context) error) error {
	var err error
	for try := 1; try <= hookTries; try++ {
		if err = send(ctx); err == nil || !retriable(err) {
			return err
		}
		if try == hookTries {
			break
		}
		select {
		case <-time.After(time.Duration(2*try-1) * hookPause):
		case <-ctx.Done():
			return fmt.Errorf("the station did not take this hook's report: %w", err)
		}
	}
	return fmt.Errorf("the station did not take this hook's report after %d tries: %w", hookTries, err)
}

// retriable is a failure another try may not meet: the station busy
// (503, or a connection closed before its answer), or not answering.
func retriable(err error) bool {
	var apiErr *apitype.Error
	if errors.As(err, &apiErr) {
		return apiErr.Status >= 500 // 503 Service Unavailable among them
	}
	var busy *client.BusyError
	var op *net.OpError
	return errors.As(err, &busy) || errors.As(err, &op) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

func (e *env) sendHook(args []string) error {
	// Read stdin before anything can fail, so the agent never writes the
	// hook's JSON into a closed pipe.
	in, readErr := readHookInput(e.stdin)
	if len(args) > 0 {
		return fmt.Errorf("takes no arguments (got %q); it reads the hook's JSON on stdin", strings.Join(args, " "))
	}
	if readErr != nil {
		return readErr
	}
	h, err := parseHook(in)
	if err != nil {
		return err
	}
	c, err := client.FromEnv()
	if err != nil {
		return err
	}
	if h.Event == "PermissionRequest" {
		return e.askPerson(c, in)
	}
	addHookDetail(&h, in)
	ctx, cancel := context.WithTimeout(e.ctx, hookTimeout)
	defer cancel()
	return retryHook(ctx, func(ctx context.Context) error { return c.AgentHook(ctx, h) })
}

// readHookInput reads the hook's JSON, and drains whatever is past the
// limit so the writer is never left blocked.
func readHookInput(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxHookInput+1))
	if err != nil {
		return nil, fmt.Errorf("read the hook's JSON from stdin: %w", err)
	}
	if len(b) > maxHookInput {
		_, _ = io.Copy(io.Discard, r)
		return nil, fmt.Errorf("the hook's JSON on stdin is over %d bytes; nothing was sent", maxHookInput)
	}
	return b, nil
}

// parseHook reads one JSON object, keeping the fields the station reads
// and ignoring the many others an agent CLI sends.
func parseHook(b []byte) (supervisor.HookEvent, error) {
	var h supervisor.HookEvent
	if len(strings.TrimSpace(string(b))) == 0 {
		return h, errors.New("no hook JSON on stdin; the agent CLI's hook passes one object")
	}
	if err := json.Unmarshal(b, &h); err != nil {
		return h, fmt.Errorf("the hook's JSON on stdin is not valid: %w", err)
	}
	if strings.TrimSpace(h.Event) == "" {
		return h, errors.New("the hook's JSON has no hook_event_name; nothing was sent")
	}
	if len(h.Message) > maxHookMessage {
		h.Message = strings.ToValidUTF8(h.Message[:maxHookMessage], "") + "…"
	}
	return h, nil
}
