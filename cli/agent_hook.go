package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// The hook runs inside the agent's own turn, so it must never get in the
// agent's way: Claude Code reads exit code 2 as "block this tool call", adds
// a SessionStart or UserPromptSubmit hook's stdout to the model's context,
// and waits for the hook to end. So agent hook always exits 0, prints
// nothing on stdout, answers within hookTimeout, and reports any failure as
// one line on stderr (which Claude Code shows only in its debug log).

// hookTimeout bounds the whole call to the station: a hook holds up the
// agent's turn, and a lost sign of life costs less than a stalled agent.
const hookTimeout = 5 * time.Second

// maxHookInput is the most hook JSON read. A PostToolUse hook carries the
// tool's whole output, which may be large; the station needs four short
// fields of it.
const maxHookInput = 16 << 20

// maxHookMessage caps the message forwarded: a notification is one line,
// and the station's request limit must never be what fails a hook.
const maxHookMessage = 4 << 10

func (e *env) agentHook(args []string) error {
	// A panic would exit 2, the one code that blocks the agent's tool call.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintln(e.stderr, oneLine(fmt.Sprintf("buildstation agent hook: internal error: %v", r)))
		}
	}()
	if err := e.sendHook(args); err != nil {
		fmt.Fprintln(e.stderr, "buildstation agent hook: "+oneLine(err.Error()))
	}
	return nil
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
	return c.AgentHook(ctx, h)
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
