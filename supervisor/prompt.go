package supervisor

import (
	"fmt"
	"strings"

	"github.com/buildstation/buildstation/supervisor/config"
)

// renderPrompt writes the task as the agent's first message. It ends with
// how to finish, because most stalls are an agent that finished and forgot
// the workflow's last step.
func renderPrompt(t Task, kind string, agent config.Agent) string {
	var b strings.Builder
	if kind == "review" {
		fmt.Fprintf(&b, "Review task %s: %s\n", t.ID, t.Title)
	} else {
		fmt.Fprintf(&b, "Task %s: %s\n", t.ID, t.Title)
	}
	if t.Attempt > 1 {
		fmt.Fprintf(&b, "(attempt %d)\n", t.Attempt)
	}
	if body := strings.TrimSpace(t.Body); body != "" {
		fmt.Fprintf(&b, "\n%s\n", body)
	}
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "\nNote: %s\n", n)
	}
	b.WriteString("\nWhen you have finished: commit your work in small atomic commits, then ")
	if agent.Profile == "generic" {
		b.WriteString("run `buildstation agent complete --summary \"what you did\"`. ")
		b.WriteString("If you cannot finish, run `buildstation agent block --reason \"why\"`. ")
		b.WriteString("While working you may report with `buildstation agent progress \"what you are doing\"`.\n")
	} else {
		b.WriteString("call the complete_task tool with a summary. ")
		b.WriteString("If you cannot finish, call block_task with the reason. ")
		b.WriteString("While working you may call report_progress.\n")
	}
	return b.String()
}

// agentArgv is the command line of a session. A built-in CLI profile gets the
// prompt as its first message, after "--" so no option swallows it; a
// generic command reads BUILDSTATION_PROMPT_FILE instead.
func agentArgv(agent config.Agent, prompt string) []string {
	argv := append(append([]string{}, agent.Command...), agent.Args...)
	switch agent.Profile {
	case "claude", "codex", "gemini":
		argv = append(argv, "--", prompt)
	}
	return argv
}
