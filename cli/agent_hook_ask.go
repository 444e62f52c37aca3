package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// askTimeout bounds a PermissionRequest hook's wait for a person. The
// station ends the wait sooner (the project's idle window); this only keeps
// a hook from outliving a station that stopped answering. The agent's own
// timeout for the hook is longer still (agent.AskHookTimeout).
const askTimeout = time.Hour

// hookInput is the part of an agent CLI's hook JSON the hook reads itself:
// the tool's input (to describe it, and to answer a question with it) and
// the transcript (for usage).
type hookInput struct {
	Tool           string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	TranscriptPath string          `json:"transcript_path"`
}

// permissionOutput is a PermissionRequest hook's answer, the shape Claude
// Code and Codex both read on stdout.
type permissionOutput struct {
	HookSpecificOutput struct {
		HookEventName string             `json:"hookEventName"`
		Decision      permissionDecision `json:"decision"`
	} `json:"hookSpecificOutput"`
}

type permissionDecision struct {
	Behavior     string         `json:"behavior"`
	Message      string         `json:"message,omitempty"`
	UpdatedInput map[string]any `json:"updatedInput,omitempty"`
}

// askPerson is the PermissionRequest hook: it asks a person through the
// station and prints their decision for the agent. Nobody deciding, it
// prints nothing and the agent shows its own dialog.
func (e *env) askPerson(c *client.Client, raw []byte) error {
	var in hookInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return fmt.Errorf("the hook's JSON on stdin is not valid: %w", err)
	}
	req := supervisor.DescribeTool(in.Tool, in.ToolInput)
	if len(req.Input) > supervisor.MaxAskInput {
		// The station would refuse it: a request a person cannot read
		// whole is not one they may allow from a card or a notice. The
		// agent's own dialog shows it in its console (session attach).
		fmt.Fprintf(e.stderr, "buildstation: %s.\n", supervisor.AskTooLarge(len(req.Input)))
		return nil
	}
	ctx, cancel := context.WithTimeout(e.ctx, askTimeout)
	defer cancel()
	var d supervisor.Decision
	err := retryHook(ctx, func(ctx context.Context) (err error) {
		d, err = c.AgentAsk(ctx, req)
		return err
	})
	if err != nil || d.Behavior == "" {
		return err
	}
	out, err := permissionAnswer(in, req, d)
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(append(out, '\n'))
	return err
}

// permissionAnswer is the hook's stdout for a decision. A question's answer
// goes back as the tool's input with "answers" added, the way
// AskUserQuestion takes a person's choice (checked with Claude Code
// 2.1.328: the model then reads `"Which colour?"="blue"`); a denial's note
// is the message the model reads.
func permissionAnswer(in hookInput, req supervisor.AskRequest, d supervisor.Decision) ([]byte, error) {
	var o permissionOutput
	o.HookSpecificOutput.HookEventName = "PermissionRequest"
	dec := permissionDecision{Behavior: d.Behavior}
	switch {
	case d.Behavior == supervisor.DecideDeny:
		dec.Message = "A person denied this."
		if d.Note != "" {
			dec.Message = "A person denied this: " + d.Note
		}
	case req.Kind == supervisor.AskQuestion:
		var input map[string]any
		if err := json.Unmarshal(in.ToolInput, &input); err != nil || input == nil {
			return nil, fmt.Errorf("the question's tool_input is not an object: %v", err)
		}
		input["answers"] = map[string]string{firstQuestion(in.ToolInput): d.Answer}
		dec.UpdatedInput = input
	}
	o.HookSpecificOutput.Decision = dec
	return json.Marshal(o)
}

// firstQuestion is the text of the first question in AskUserQuestion's
// input: the one the station showed.
func firstQuestion(raw json.RawMessage) string {
	var in struct {
		Questions []struct {
			Question string `json:"question"`
		} `json:"questions"`
	}
	_ = json.Unmarshal(raw, &in)
	if len(in.Questions) == 0 {
		return ""
	}
	return in.Questions[0].Question
}

// addHookDetail adds what the station shows beyond life: a tool hook's
// one-line input (for the activity), and the usage so far from the
// transcript the hook names, read on the hooks that end a step.
func addHookDetail(h *supervisor.HookEvent, raw []byte) {
	var in hookInput
	if json.Unmarshal(raw, &in) != nil {
		return
	}
	if h.Tool != "" && len(in.ToolInput) > 0 {
		h.ToolDetail = supervisor.ActivityDetail(supervisor.DescribeTool(h.Tool, in.ToolInput).Input)
	}
	if in.TranscriptPath == "" || (h.Event != "PostToolUse" && h.Event != "Stop" && h.Event != "SubagentStop") {
		return
	}
	f, err := os.Open(in.TranscriptPath)
	if err != nil {
		return // a transcript not there yet costs a reading, not the hook
	}
	defer f.Close()
	if u, err := supervisor.ReadTranscriptUsage(f); err == nil {
		h.Usage = &u
	}
}
