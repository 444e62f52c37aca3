package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// taskAddOptions are `task add`'s.
type taskAddOptions struct {
	*env
	Project, Title, Body, BodyFile string
	JSON                           bool
}

func init() { subcommand("task", newTaskAddCmd) }

func newTaskAddCmd(e *env, runF func(*taskAddOptions) error) *cobra.Command {
	o := &taskAddOptions{env: e}
	c := &cobra.Command{
		Use:   "add --project P --title T [--body B | --body-file F]",
		Short: "Add a task to a project's queue; prints the new id",
		Long: `Add a task to a project's queue and print its id alone on one line (--json:
the whole task). The body is the task's full text, given to the agent with
the title; --body-file - reads it from stdin.`,
		Example: `  buildstation task add --project web --title "Fix the login page"
  buildstation task add --project web --title "Upgrade" --body-file notes.md
  git log -1 --format=%B | buildstation task add --project web --title "Follow up" --body-file -`,
		Args: positional(0, 0),
		RunE: runE(o, nil, runF, taskAddRun),
	}
	f := c.Flags()
	f.StringVar(&o.Project, "project", "", "the project `name` (see \"buildstation project ls\")")
	f.StringVar(&o.Title, "title", "", "a one-line `title`")
	f.StringVar(&o.Body, "body", "", "the task's full `text`")
	f.StringVar(&o.BodyFile, "body-file", "", "read the body from `file` (- for stdin)")
	f.BoolVar(&o.JSON, "json", false, "print the task as JSON")
	_ = c.RegisterFlagCompletionFunc("project", e.completeProjectFlag)
	return c
}

func taskAddRun(o *taskAddOptions) error {
	switch {
	case o.Project == "":
		return usagef(`task add needs --project; list projects with "buildstation project ls"`)
	case strings.TrimSpace(o.Title) == "":
		return usagef("task add needs --title")
	case o.Body != "" && o.BodyFile != "":
		return usagef("task add takes --body or --body-file, not both")
	}
	body := o.Body
	if o.BodyFile != "" {
		b, err := o.readBodyFile(o.BodyFile)
		if err != nil {
			return err
		}
		body = b
	}
	return ask(o.env, func(c *client.Client) (supervisor.Task, error) {
		return c.AddTask(o.ctx, supervisor.NewTask{Project: o.Project, Title: o.Title, Body: body})
	}, func(t supervisor.Task) error {
		if o.JSON {
			return printJSON(o.stdout, t)
		}
		return o.printf("%s\n", t.ID)
	})
}

func (e *env) readBodyFile(name string) (string, error) {
	var (
		b   []byte
		err error
	)
	if name == "-" {
		b, err = readAllLimited(e.stdin)
	} else {
		b, err = os.ReadFile(name)
	}
	if err != nil {
		return "", fmt.Errorf("read --body-file %s: %v; check the path", name, err)
	}
	return string(b), nil
}
