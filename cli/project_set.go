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

// projectSetOptions are `project set`'s: per-project overrides, like
// `project set web idle_window=15m nudge=`; an empty value removes the
// override.
type projectSetOptions struct {
	*env
	Name string
	Set  map[string]string
}

func init() { subcommand("project", newProjectSetCmd) }

func newProjectSetCmd(e *env, runF func(*projectSetOptions) error) *cobra.Command {
	o := &projectSetOptions{env: e}
	return &cobra.Command{Use: "set NAME KEY=VALUE...", Short: "Edit a project's overrides in config.toml, validated and applied live",
		Long: "Edit a project's overrides in config.toml: the station rewrites those lines\n(comments and the rest of the file stay), validates the whole file, and\napplies it without a restart. An empty value removes the override, so the\n[defaults] value applies again.\n\nKeys: " + strings.Join(config.ProjectKeys, ", ") + ".",
		Example: `  buildstation project set web idle_window=15m block_window=10m
  buildstation project set web nudge=     # back to the default nudge`,
		Args:              positional(2, -1),
		ValidArgsFunction: e.completeProjectSet,
		RunE:              runE(o, o.parse, runF, projectSetRun)}
}

// parse reads NAME KEY=VALUE...
func (o *projectSetOptions) parse(_ *cobra.Command, args []string) error {
	o.Name, o.Set = args[0], map[string]string{}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("%q is not KEY=VALUE; for example: buildstation project set %s idle_window=15m", kv, o.Name)
		}
		o.Set[k] = v
	}
	return nil
}

// projectSetRun has the station write the overrides to config.toml,
// validate them and apply them without a restart, and says what changed.
func projectSetRun(o *projectSetOptions) error {
	c, err := o.client()
	if err != nil {
		return err
	}
	var before supervisor.ProjectInfo
	if ps, err := c.Projects(o.ctx); err == nil {
		if i := slices.IndexFunc(ps, func(p supervisor.ProjectInfo) bool { return p.Name == o.Name }); i >= 0 {
			before = ps[i]
		}
	}
	p, err := c.SetProjectSettings(o.ctx, o.Name, o.Set)
	if err != nil {
		return err
	}
	name := textsafe.Line(p.Name)
	windows := false
	for _, k := range slices.Sorted(maps.Keys(o.Set)) {
		v := o.Set[k]
		windows = windows || strings.HasSuffix(k, "_window")
		if v == "" {
			fmt.Fprintf(o.stdout, "%s: %s removed (the default applies)\n", name, textsafe.Line(k))
			continue
		}
		line := fmt.Sprintf("%s: %s = %s", name, textsafe.Line(k), textsafe.Line(v))
		if was, ok := settingOf(before, k); ok && said(k, was) != said(k, v) {
			line += " (was " + textsafe.Line(said(k, was)) + ")"
		}
		fmt.Fprintln(o.stdout, line)
	}
	if windows {
		// What is in force, which a shared board's floor may raise.
		fmt.Fprintf(o.stdout, "%s: idle %s, block %s, review idle %s\n", name,
			supervisor.SpokenText(p.IdleWindow), supervisor.SpokenText(p.BlockWindow), supervisor.SpokenText(p.ReviewIdleWindow))
	}
	o.warnBoardFloor(p)
	return nil
}

// said is a setting's value as a person reads it: a window in plain
// words ("5 min"), anything else as it is.
func said(key, v string) string {
	if strings.HasSuffix(key, "_window") {
		return supervisor.SpokenText(v)
	}
	return v
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
func (o *projectSetOptions) warnBoardFloor(p supervisor.ProjectInfo) {
	for _, w := range []struct{ key, name, now string }{
		{"idle_window", "idle window", p.IdleWindow},
		{"block_window", "block window", p.BlockWindow},
		{"review_idle_window", "review idle window", p.ReviewIdleWindow},
	} {
		asked, err1 := time.ParseDuration(o.Set[w.key])
		now, err2 := time.ParseDuration(w.now)
		if err1 != nil || err2 != nil || now <= asked {
			continue
		}
		fmt.Fprintf(o.stderr, "note: the shared board keeps %s's %s at %s or longer (buildstation board cap), so this station's %s is saved but waits until the board's is lowered\n",
			textsafe.Line(p.Name), w.name, supervisor.Spoken(now), supervisor.Spoken(asked))
	}
}
