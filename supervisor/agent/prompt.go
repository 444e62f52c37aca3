package agent

import (
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
)

// Prompt writes the task as the agent's first message. It ends with
// how to finish, because most stalls are an agent that finished and forgot
// the workflow's last step.
func Prompt(t supervisor.Task, kind supervisor.SessionKind, agent Agent, ws supervisor.Workspace) string {
	if kind == supervisor.KindReview {
		return renderReviewPrompt(t, agent, ws)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Task %s: %s\n", t.ID, t.Title)
	if t.Attempt > 1 {
		fmt.Fprintf(&b, "(attempt %d)\n", t.Attempt)
	}
	if !t.External.IsZero() && t.External.URL != "" {
		// The issue it came from: its comments and links are there.
		fmt.Fprintf(&b, "From issue %s: %s\n", t.External.ID, t.External.URL)
	}
	if body := strings.TrimSpace(t.Body); body != "" {
		fmt.Fprintf(&b, "\n%s\n", body)
	}
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "\nNote: %s\n", n)
	}
	if ws.Git {
		fmt.Fprintf(&b, "\nYou work in a git worktree on branch %s; commit there.\n", ws.Branch)
	}
	b.WriteString("\nWhen you have finished: commit your work in small atomic commits, then ")
	if !profileOf(agent.Profile).MCP {
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

// renderReviewPrompt asks a fresh session to judge finished work. The diff
// range is the task's whole branch, so a reviewer sees every commit.
func renderReviewPrompt(t supervisor.Task, agent Agent, ws supervisor.Workspace) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Review task %s: %s\n", t.ID, t.Title)
	if t.Attempt > 1 {
		fmt.Fprintf(&b, "(attempt %d)\n", t.Attempt)
	}
	if body := strings.TrimSpace(t.Body); body != "" {
		fmt.Fprintf(&b, "\nThe task:\n%s\n", body)
	}
	if t.Summary != "" {
		fmt.Fprintf(&b, "\nThe coding session's summary: %s\n", t.Summary)
	}
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "\nNote: %s\n", n)
	}
	if ws.Git && ws.Base != "" {
		fmt.Fprintf(&b, "\nThe change is the diff %s..%s (run `git diff %s..%s` here).\n", supervisor.ShortSHA(ws.Base), ws.Branch, ws.Base, ws.Branch)
	}
	b.WriteString("\nRead the change and judge whether it does what the task asks, correctly and tested. Do not change the code. ")
	if !profileOf(agent.Profile).MCP {
		b.WriteString("Then run `buildstation agent review approve --notes \"…\"` or `buildstation agent review changes --notes \"what must change\"`.\n")
	} else {
		b.WriteString("Then call the complete_review tool with verdict \"approve\" or \"changes\" and notes saying why.\n")
	}
	return b.String()
}

// NudgeFacts is what a nudge is written from: the session's task, kind
// and agent, and the project's nudge text with its placeholders.
type NudgeFacts struct {
	Text       string // the project's nudge, placeholders and all
	Title      string
	Kind       supervisor.SessionKind
	Profile    string
	IdleWindow time.Duration
}

// Placeholder is one {name} a nudge may use. NudgePlaceholders is the one
// list of them: config validation accepts these and refuses any other
// {word}, the default config.toml and docs/configuration.md describe them
// from About, and Nudge fills them.
type Placeholder struct {
	Name  string // with its braces: "{idle}"
	About string // what it becomes, for config.toml's comments and the docs
	fill  func(nudgeParts) string
}

// nudgeParts are the values a nudge's placeholders are filled from.
type nudgeParts struct {
	idle     time.Duration
	facts    NudgeFacts
	evidence []string
}

// NudgePlaceholders are the placeholders a nudge may use, in the order the
// docs list them.
var NudgePlaceholders = []Placeholder{
	{"{idle}", "how long it was silent", func(p nudgeParts) string { return p.idle.String() }},
	{"{task}", "its title", func(p nudgeParts) string { return p.facts.Title }},
	{"{evidence}", "what each layer last showed", func(p nudgeParts) string { return strings.Join(p.evidence, ", ") }},
	{"{complete}", `how this agent reports it is done: the complete_task tool, or "buildstation agent complete"`,
		func(p nudgeParts) string { return completeHint(p.facts.Kind, p.facts.Profile) }},
}

// PlaceholderNames are NudgePlaceholders' names, braces and all.
func PlaceholderNames() []string {
	out := make([]string, len(NudgePlaceholders))
	for i, p := range NudgePlaceholders {
		out[i] = p.Name
	}
	return out
}

// Nudge fills the nudge text's placeholders (NudgePlaceholders): {idle} is
// how long the console was really silent, {evidence} what each of layers
// last showed.
func Nudge(f NudgeFacts, layers []string, lastOutput, now time.Time, evidence map[string]time.Time) string {
	parts := nudgeParts{idle: f.IdleWindow, facts: f}
	if !lastOutput.IsZero() {
		parts.idle = now.Sub(lastOutput).Round(time.Second)
	}
	for _, l := range layers {
		if t, ok := evidence[l]; ok {
			parts.evidence = append(parts.evidence, fmt.Sprintf("%s %s ago", l, now.Sub(t).Round(time.Second)))
		} else {
			parts.evidence = append(parts.evidence, l+" nothing")
		}
	}
	var pairs []string
	for _, p := range NudgePlaceholders {
		pairs = append(pairs, p.Name, p.fill(parts))
	}
	// A TUI submits on Enter; a newline inside the text would submit early.
	return strings.ReplaceAll(strings.NewReplacer(pairs...).Replace(f.Text), "\n", " ")
}

// completeHint is the nudge's {complete}: the one way this agent has to say
// it is done, in the words of its prompt. Agents with the station's MCP
// tools call them; a generic agent has only the command.
func completeHint(kind supervisor.SessionKind, profile string) string {
	generic := !profileOf(profile).MCP
	switch {
	case kind == supervisor.KindReview && generic:
		return "run `buildstation agent review approve --notes \"…\"` (or `changes`) with your verdict"
	case kind == supervisor.KindReview:
		return "call the complete_review tool with your verdict"
	case generic:
		return "run `buildstation agent complete --summary \"what you did\"`"
	}
	return "call the complete_task tool with a summary"
}

// GateNote is what a nudge adds when the project's gate fails on the
// session's HEAD (failure: the end of its output), in the words of the one
// way this agent has to report: a generic agent has no complete_task tool.
func GateNote(profile, gate, sha, failure string) string {
	done, block := "complete_task", "call block_task"
	if !profileOf(profile).MCP {
		done, block = "`buildstation agent complete`", "run `buildstation agent block --reason \"why\"`"
	}
	return fmt.Sprintf(" The gate (%s) fails on your HEAD %s: %s. %s is refused until it passes: fix it and commit, or %s if you cannot.",
		gate, sha, failure, done, block)
}

// Typeable makes a prompt safe to type into an agent's terminal: line
// breaks become "\n" (a lone "\r" typed there is Enter, and would submit
// half a prompt), and escape sequences and every other control character
// are dropped (Ctrl+C would interrupt the agent, ESC starts a key sequence
// or would end a bracketed paste, NUL is nothing a person can type). The
// prompt file keeps the text as it was.
func Typeable(prompt string) string {
	return textsafe.Printable(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(prompt))
}
