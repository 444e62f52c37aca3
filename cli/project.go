package cli

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

func (e *env) projectCmd() *cobra.Command {
	var asJSON bool
	ls := &cobra.Command{Use: "ls", Short: "Projects, their effective windows, slots, queue, paused or not",
		Example: "  buildstation project ls\n  buildstation project ls --json | jq '.[] | select(.paused)'",
		Args:    positional(0, 0),
		RunE:    func(*cobra.Command, []string) error { return e.projectLs(asJSON) }}
	ls.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	var showJSON bool
	show := &cobra.Command{Use: "show NAME", Short: "One project: its folder, agent, effective windows, slots, queue, paused or not",
		Example:           "  buildstation project show web\n  buildstation project show web --json | jq .queued",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeProjects,
		RunE:              func(_ *cobra.Command, args []string) error { return e.projectShow(args[0], showJSON) }}
	show.Flags().BoolVar(&showJSON, "json", false, "print a JSON object")
	var reason string
	pause := &cobra.Command{Use: "pause NAME", Short: "Stop starting a project's tasks (running sessions go on)",
		Example:           "  buildstation project pause web --reason \"CI is down\"",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeProjects,
		RunE:              func(_ *cobra.Command, args []string) error { return e.projectPause(args[0], reason) }}
	pause.Flags().StringVar(&reason, "reason", "", "why, shown in the tray and status")
	resume := &cobra.Command{Use: "resume NAME", Short: "Start a paused project's tasks again (also after its breaker tripped)",
		Example:           "  buildstation project resume web",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeProjects,
		RunE:              func(_ *cobra.Command, args []string) error { return e.projectResume(args[0]) }}
	set := &cobra.Command{Use: "set NAME KEY=VALUE...", Short: "Edit a project's overrides in config.toml, validated and applied live",
		Long: "Edit a project's overrides in config.toml: the station rewrites those lines\n(comments and the rest of the file stay), validates the whole file, and\napplies it without a restart. An empty value removes the override, so the\n[defaults] value applies again.\n\nKeys: " + strings.Join(config.ProjectKeys, ", ") + ".",
		Example: `  buildstation project set web idle_window=15m block_window=10m
  buildstation project set web nudge=     # back to the default nudge`,
		Args:              positional(2, -1),
		ValidArgsFunction: e.completeProjectSet,
		RunE:              func(_ *cobra.Command, args []string) error { return e.projectSet(args) }}
	rm := &cobra.Command{Use: "rm NAME", Short: "Remove a project from config.toml (its folder and tasks stay)",
		Long:              "Remove a project's [[projects]] table from config.toml (the rest of the file\nand its comments stay). Its folder is not touched, and its tasks stay on the\nboard. A project with a session running is refused: cancel its task or wait.",
		Example:           "  buildstation project rm web",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeProjects,
		RunE:              func(_ *cobra.Command, args []string) error { return e.projectRm(args[0]) }}
	return group("project", "Add, list and remove projects, pause or resume their queues, edit their overrides",
		"Projects are the [[projects]] tables of config.toml: a folder, the agent that\nworks in it, its windows and gate.",
		"  buildstation project add ~/src/web\n  buildstation project ls\n  buildstation project pause web --reason \"release freeze\"",
		e.projectAddCmd(), ls, show, pause, resume, set, rm)
}

func (e *env) projectLs(asJSON bool) error {
	c, err := e.client()
	if err != nil {
		return err
	}
	list, err := c.Projects(e.ctx)
	if err != nil {
		return err
	}
	if asJSON {
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

// projectShow is `project show NAME`: one project, a line per field.
func (e *env) projectShow(name string, asJSON bool) error {
	c, err := e.client()
	if err != nil {
		return err
	}
	p, err := c.Project(e.ctx, name)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(e.stdout, p)
	}
	paused := "no"
	if p.Paused {
		paused = "yes: " + p.PauseReason
	}
	t := newTable(e.stdout)
	for _, kv := range [][2]string{{"name", p.Name}, {"path", p.Path}, {"agent", p.Agent}, {"gate", p.Gate},
		{"idle_window", p.IdleWindow}, {"block_window", p.BlockWindow}, {"review_idle_window", p.ReviewIdleWindow},
		{"review", strconv.FormatBool(p.Review)}, {"concurrency", strconv.Itoa(p.Concurrency)},
		{"running", strconv.Itoa(p.Running)}, {"queued", strconv.Itoa(p.Queued)}, {"paused", paused}} {
		t.row(kv[0]+":", kv[1])
	}
	return t.flush()
}

func (e *env) projectPause(name, reason string) error {
	c, err := e.client()
	if err != nil {
		return err
	}
	if err := c.Pause(e.ctx, name, reason); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s paused\n", name)
	return err
}

func (e *env) projectResume(name string) error {
	c, err := e.client()
	if err != nil {
		return err
	}
	if err := c.Resume(e.ctx, name); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s resumed\n", name)
	return err
}

// projectSet edits per-project overrides: `project set web idle_window=15m
// nudge=`; an empty value removes the override. The station writes them to
// config.toml, validates them, and applies them without a restart.
func (e *env) projectSet(pos []string) error {
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
	var before supervisor.ProjectInfo
	if ps, err := c.Projects(e.ctx); err == nil {
		if i := slices.IndexFunc(ps, func(p supervisor.ProjectInfo) bool { return p.Name == pos[0] }); i >= 0 {
			before = ps[i]
		}
	}
	p, err := c.SetProjectSettings(e.ctx, pos[0], set)
	if err != nil {
		return err
	}
	name := textsafe.Line(p.Name)
	windows := false
	for _, k := range slices.Sorted(maps.Keys(set)) {
		v := set[k]
		windows = windows || strings.HasSuffix(k, "_window")
		if v == "" {
			fmt.Fprintf(e.stdout, "%s: %s removed (the default applies)\n", name, textsafe.Line(k))
			continue
		}
		line := fmt.Sprintf("%s: %s = %s", name, textsafe.Line(k), textsafe.Line(v))
		if was, ok := settingOf(before, k); ok && was != v {
			line += " (was " + textsafe.Line(was) + ")"
		}
		fmt.Fprintln(e.stdout, line)
	}
	if windows {
		// What is in force, which a shared board's floor may raise.
		fmt.Fprintf(e.stdout, "%s: idle %s, block %s, review idle %s\n", name, p.IdleWindow, p.BlockWindow, p.ReviewIdleWindow)
	}
	e.warnBoardFloor(p, set)
	return nil
}

// settingOf is a project setting as project ls shows it, for "(was …)".
func settingOf(p supervisor.ProjectInfo, key string) (string, bool) {
	if p.Name == "" {
		return "", false
	}
	switch key {
	case "agent":
		return p.Agent, true
	case "gate":
		return p.Gate, true
	case "idle_window":
		return p.IdleWindow, true
	case "block_window":
		return p.BlockWindow, true
	case "review_idle_window":
		return p.ReviewIdleWindow, true
	case "concurrency":
		return strconv.Itoa(p.Concurrency), true
	case "review":
		return strconv.FormatBool(p.Review), true
	}
	return "", false
}

// warnBoardFloor says so when a window just set is shorter than the one in
// force: a shared board's window is every station's floor, so the local
// value is saved but waits until the board's is lowered.
func (e *env) warnBoardFloor(p supervisor.ProjectInfo, set map[string]string) {
	for _, w := range []struct{ key, name, now string }{
		{"idle_window", "idle window", p.IdleWindow},
		{"block_window", "block window", p.BlockWindow},
		{"review_idle_window", "review idle window", p.ReviewIdleWindow},
	} {
		asked, err1 := time.ParseDuration(set[w.key])
		now, err2 := time.ParseDuration(w.now)
		if err1 != nil || err2 != nil || now <= asked {
			continue
		}
		fmt.Fprintf(e.stderr, "note: the shared board keeps %s's %s at %s or longer (buildstation board cap), so this station's %s is saved but waits until the board's is lowered\n",
			textsafe.Line(p.Name), w.name, now, asked)
	}
}
