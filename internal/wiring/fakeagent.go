package wiring

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/buildstation/buildstation/internal/fakeagent"
	"github.com/buildstation/buildstation/supervisor/client"
)

// FakeAgent plays a script in place of an agent CLI: the demo's agents and
// the tests' are this. With no script argument it takes the script from the
// task prompt (BUILDSTATION_PROMPT_FILE): the line "script: …", or on attempt
// N the line "script-N: …" when there is one.
func FakeAgent(ctx context.Context, _ string, args []string) int {
	script := strings.Join(args, " ")
	if script == "" {
		var err error
		if script, err = scriptFromPrompt(os.Getenv("BUILDSTATION_PROMPT_FILE")); err != nil {
			fmt.Fprintf(os.Stderr, "fake-agent: %v\n", err)
			return 2
		}
	}
	self, _ := os.Executable()
	dir, _ := os.Getwd()
	env := fakeagent.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Dir: dir, Self: self}
	if c, err := client.FromEnv(); err == nil {
		env.Reporter = reporter{c}
	}
	return fakeagent.Run(ctx, script, env)
}

var attemptRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\(attempt (\d+)\)$`) })

func scriptFromPrompt(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("no script given and BUILDSTATION_PROMPT_FILE is not set; pass a script such as \"print hi; complete done\"")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read the task prompt: %w", err)
	}
	attempt := 1
	if m := attemptRE().FindSubmatch(b); m != nil {
		attempt, _ = strconv.Atoi(string(m[1]))
	}
	var script string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "script:"); ok && script == "" {
			script = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, fmt.Sprintf("script-%d:", attempt)); ok {
			return strings.TrimSpace(v), nil
		}
	}
	if script == "" {
		return "", fmt.Errorf("the task prompt %s has no \"script:\" line; put the fake agent's script in the task body", path)
	}
	return script, nil
}

// reporter adapts the API client to the fake agent's Reporter.
type reporter struct{ c *client.Client }

func (r reporter) Complete(ctx context.Context, s string) error { return r.c.AgentComplete(ctx, s) }
func (r reporter) Block(ctx context.Context, s string) error    { return r.c.AgentBlock(ctx, s) }
func (r reporter) Progress(ctx context.Context, s string) error { return r.c.AgentProgress(ctx, s) }
func (r reporter) Status(ctx context.Context, s string) error   { return r.c.AgentStatus(ctx, s) }
