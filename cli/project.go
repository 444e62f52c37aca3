package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
)

func (e *env) projectLs(args []string) error {
	f := e.flags("project ls")
	asJSON := f.Bool("json", false, "print a JSON array")
	if _, err := f.parse(e, args, 0, 0); err != nil {
		return err
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	list, err := c.Projects(e.ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		if list == nil {
			list = []supervisor.ProjectInfo{}
		}
		return printJSON(e.stdout, list)
	}
	t := newTable(e.stdout, "NAME", "AGENT", "IDLE", "BLOCK", "REVIEW IDLE", "SLOTS", "RUNNING", "QUEUED", "PAUSED")
	for _, p := range list {
		paused := "no"
		if p.Paused {
			paused = "yes"
			if p.PauseReason != "" {
				paused += ": " + p.PauseReason
			}
		}
		t.row(p.Name, p.Agent, p.IdleWindow, p.BlockWindow, p.ReviewIdleWindow,
			strconv.Itoa(p.Concurrency), strconv.Itoa(p.Running), strconv.Itoa(p.Queued), paused)
	}
	return t.flush()
}

func (e *env) projectPause(args []string) error {
	f := e.flags("project pause")
	reason := f.String("reason", "", "why, shown in the tray")
	pos, err := f.parse(e, args, 1, 1)
	if err != nil {
		return err
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	if err := c.Pause(e.ctx, pos[0], *reason); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s paused\n", pos[0])
	return err
}

func (e *env) projectResume(args []string) error {
	pos, err := e.parse("project resume", args, 1, 1)
	if err != nil {
		return err
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	if err := c.Resume(e.ctx, pos[0]); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s resumed\n", pos[0])
	return err
}

// projectSet edits per-project overrides: `project set web idle_window=15m
// nudge=`; an empty value removes the override. The station writes them to
// config.toml, validates them, and applies them without a restart.
func (e *env) projectSet(args []string) error {
	pos, err := e.parse("project set", args, 2, -1)
	if err != nil {
		return err
	}
	set := map[string]string{}
	for _, kv := range pos[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("%q is not KEY=VALUE; for example: buildstation project set %s idle_window=15m", kv, pos[0])
		}
		set[k] = v
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	p, err := c.SetProjectSettings(e.ctx, pos[0], set)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s: idle %s, block %s, review idle %s\n", textsafe.Line(p.Name), p.IdleWindow, p.BlockWindow, p.ReviewIdleWindow)
	return err
}
