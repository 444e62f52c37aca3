package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
)

func (e *env) taskAdd(args []string) error {
	f := e.flags("task add")
	project := f.String("project", "", "the project `name`")
	title := f.String("title", "", "a one-line `title`")
	body := f.String("body", "", "the task's full `text`")
	bodyFile := f.String("body-file", "", "read the body from `file` (- for stdin)")
	asJSON := f.Bool("json", false, "print the task as JSON")
	if _, err := f.parse(e, args, 0, 0); err != nil {
		return err
	}
	switch {
	case *project == "":
		return usagef(`task add needs --project; list projects with "buildstation project ls"`)
	case strings.TrimSpace(*title) == "":
		return usagef("task add needs --title")
	case *body != "" && *bodyFile != "":
		return usagef("task add takes --body or --body-file, not both")
	}
	if *bodyFile != "" {
		b, err := e.readBodyFile(*bodyFile)
		if err != nil {
			return err
		}
		*body = b
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	t, err := c.AddTask(e.ctx, supervisor.NewTask{Project: *project, Title: *title, Body: *body})
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(e.stdout, t)
	}
	_, err = fmt.Fprintln(e.stdout, t.ID)
	return err
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

func (e *env) taskLs(args []string) error {
	f := e.flags("task ls")
	state := f.String("state", "", "only tasks in this `state`")
	project := f.String("project", "", "only tasks of this `project`")
	limit := f.Int("limit", 0, "at most `n` tasks (0: all)")
	after := f.String("after", "", "only tasks after this task `id` (the last of the previous page)")
	asJSON := f.Bool("json", false, "print a JSON array")
	if _, err := f.parse(e, args, 0, 0); err != nil {
		return err
	}
	st := supervisor.TaskState(*state)
	if st != "" && !st.Valid() {
		return usagef("unknown --state %q; use one of %s", *state, taskStates())
	}
	if *limit < 0 {
		return usagef("--limit %d is not a number of tasks; use a whole number, 0 for all", *limit)
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	tasks, err := c.Tasks(e.ctx, supervisor.TaskFilter{State: st, Project: *project, Limit: *limit, After: *after})
	if err != nil {
		return err
	}
	if *asJSON {
		if tasks == nil {
			tasks = []supervisor.Task{}
		}
		return printJSON(e.stdout, tasks)
	}
	t := newTable(e.stdout, "ID", "PROJECT", "STATE", "ATTEMPT", "TITLE", "REASON")
	for _, tk := range tasks {
		t.row(tk.ID, tk.Project, string(tk.State), strconv.Itoa(tk.Attempt), tk.Title, tk.Reason)
	}
	if err := t.flush(); err != nil {
		return err
	}
	if *limit > 0 && len(tasks) == *limit {
		_, err = fmt.Fprintf(e.stderr, "more may follow: add --after %s for the next page\n", tasks[len(tasks)-1].ID)
	}
	return err
}

// taskWithHistory is `task show --json`: the task's fields plus "history".
type taskWithHistory struct {
	supervisor.Task
	History []supervisor.Transition `json:"history"`
}

func (e *env) taskShow(args []string) error {
	f := e.flags("task show")
	asJSON := f.Bool("json", false, "print the task and its history as JSON")
	pos, err := f.parse(e, args, 1, 1)
	if err != nil {
		return err
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	d, err := c.Task(e.ctx, pos[0])
	if err != nil {
		return err
	}
	if d.History == nil {
		d.History = []supervisor.Transition{}
	}
	if *asJSON {
		return printJSON(e.stdout, taskWithHistory{Task: d.Task, History: d.History})
	}
	return printTask(e, d)
}

func printTask(e *env, d api.TaskDetail) error {
	t := d.Task
	w := e.stdout
	// Every string here is from the board: safe for the terminal.
	line := textsafe.Line
	fmt.Fprintf(w, "%s  %s\n", line(t.ID), line(t.Title))
	fmt.Fprintf(w, "project:  %s\n", line(t.Project))
	fmt.Fprintf(w, "state:    %s (attempt %d)\n", line(string(t.State)), t.Attempt)
	if t.Reason != "" {
		fmt.Fprintf(w, "reason:   %s\n", line(t.Reason))
	}
	if t.Summary != "" {
		fmt.Fprintf(w, "summary:  %s\n", line(t.Summary))
	}
	fmt.Fprintf(w, "created:  %s\n", t.CreatedAt.Local().Format(time.DateTime))
	fmt.Fprintf(w, "updated:  %s\n", t.UpdatedAt.Local().Format(time.DateTime))
	for _, n := range t.Notes {
		fmt.Fprintf(w, "note:     %s\n", line(n))
	}
	if t.Body != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(textsafe.Printable(t.Body), "\n"))
	}
	if len(d.History) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tb := newTable(w, "AT", "FROM", "TO", "ATTEMPT", "BY", "REASON")
	for _, h := range d.History {
		tb.row(h.At.Local().Format(time.DateTime), string(h.From), string(h.To), strconv.Itoa(h.Attempt), h.Actor, h.Reason)
	}
	return tb.flush()
}

func (e *env) taskRequeue(args []string) error {
	f := e.flags("task requeue")
	note := f.String("note", "", "a `note` for the next session")
	pos, err := f.parse(e, args, 1, 1)
	if err != nil {
		return err
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	t, err := c.Requeue(e.ctx, pos[0], *note)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s requeued (attempt %d)\n", textsafe.Line(t.ID), t.Attempt)
	return err
}

func (e *env) taskCancel(args []string) error {
	pos, err := e.parse("task cancel", args, 1, 1)
	if err != nil {
		return err
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	t, err := c.Cancel(e.ctx, pos[0])
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s %s\n", textsafe.Line(t.ID), textsafe.Line(string(t.State)))
	return err
}

func taskStates() string {
	names := make([]string, len(supervisor.TaskStates))
	for i, s := range supervisor.TaskStates {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
