package cli

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/agent"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Shell completion asks the running station for names; with none running
// it offers nothing rather than waiting or failing.

const completeTimeout = 2 * time.Second

type completion = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective)

func fixedCompletions(words ...string) completion {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return words, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeFirst offers, for the first argument only, the names list
// finds through the running station.
func (e *env) completeFirst(list func(context.Context, *client.Client) []string) completion {
	return func(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		cl, err := e.client()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx, cancel := context.WithTimeout(e.ctx, completeTimeout)
		defer cancel()
		return withPrefix(list(ctx, cl), prefix), cobra.ShellCompDirectiveNoFileComp
	}
}

func (e *env) completeTasks(c *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
	return e.completeFirst(func(ctx context.Context, cl *client.Client) (ids []string) {
		ts, _ := cl.Tasks(ctx, supervisor.TaskFilter{})
		for _, t := range ts {
			ids = append(ids, t.ID+"\t"+t.Title)
		}
		return ids
	})(c, args, prefix)
}

func (e *env) completeSessions(c *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
	return e.completeFirst(func(ctx context.Context, cl *client.Client) (ids []string) {
		ss, _ := cl.Sessions(ctx)
		for _, s := range ss {
			ids = append(ids, s.ID+"\t"+s.State.String())
		}
		return ids
	})(c, args, prefix)
}

func (e *env) completeProjects(c *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
	return e.completeFirst(func(ctx context.Context, cl *client.Client) (names []string) {
		ps, _ := cl.Projects(ctx)
		for _, p := range ps {
			names = append(names, p.Name)
		}
		return names
	})(c, args, prefix)
}

// completeProjectFlag completes a --project value, wherever it stands.
func (e *env) completeProjectFlag(c *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
	return e.completeProjects(c, nil, prefix)
}

// completeProjectAdd completes `project add PATH [--name N] [--agent NAME |
// --command ARGV...]`, whose flags it parses itself: a folder first, then
// the flags, and after --agent the agents there are.
func (e *env) completeProjectAdd(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
	if slices.Contains(args, "--command") {
		return nil, cobra.ShellCompDirectiveDefault
	}
	if n := len(args); n > 0 && args[n-1] == "--agent" {
		return withPrefix(e.agentNames(), prefix), cobra.ShellCompDirectiveNoFileComp
	}
	if strings.HasPrefix(prefix, "-") || len(args) > 0 {
		return withPrefix([]string{"--name", "--agent", "--command"}, prefix), cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// completeProjectSet completes `project set NAME KEY=VALUE...`: a project,
// then the keys a person may set (config.ProjectKeys), and after agent=
// the agents there are.
func (e *env) completeProjectSet(c *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return e.completeProjects(c, args, prefix)
	}
	if name, _, ok := strings.Cut(prefix, "="); ok {
		if name != "agent" {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, a := range e.agentNames() {
			out = append(out, "agent="+a)
		}
		return withPrefix(out, prefix), cobra.ShellCompDirectiveNoFileComp
	}
	var keys []string
	for _, k := range config.ProjectKeys {
		keys = append(keys, k+"=")
	}
	return withPrefix(keys, prefix), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// agentNames are the agents a project may name: the registry's built-ins
// (supervisor/agent) and the [agents.NAME] tables of the home's config.toml
// when it reads.
func (e *env) agentNames() []string {
	names := agent.ProfileNames(true)
	home, err := config.Home(e.home)
	if err != nil {
		return names
	}
	path := filepath.Join(home, config.FileConfig)
	if data, err := os.ReadFile(path); err == nil {
		if cfg, err := config.Parse(path, data, config.Platform{}); err == nil {
			names = slices.Sorted(maps.Keys(cfg.Agents))
		}
	}
	return names
}

func withPrefix(words []string, prefix string) []string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, prefix) {
			out = append(out, w)
		}
	}
	return out
}
