package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/agent"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// projectAddOptions are `project add`'s.
type projectAddOptions struct {
	*env
	Project    supervisor.NewProject
	Accept     bool // --accept-suggestions
	SetupGiven bool // --setup was given (perhaps "")
}

func init() { subcommand("project", newProjectAddCmd) }

func newProjectAddCmd(e *env, runF func(*projectAddOptions) error) *cobra.Command {
	o := &projectAddOptions{env: e}
	return &cobra.Command{
		Use:   "add PATH [--name N] [--setup CMD] [--accept-suggestions] [--dry-run] [--agent NAME | --command ARGV...]",
		Short: "Add a project: a folder and the agent that works in it",
		Long: `Add a [[projects]] table to config.toml for the folder PATH (appended: the
rest of the file and its comments stay), validated first and applied by the
running station at once. The name defaults to the folder's name; the agent
to the [defaults] agent. --command takes every argument after it as the
program to run and its arguments. A missing folder, a name already taken or
an agent this machine does not have is refused and nothing is written. When
the agent needs a one-time step in that folder (Claude Code's folder trust),
it says which and how. With no station running, config.toml is edited
directly and the next station reads it.

It also reads the folder's package files and suggests a setup, the
command each new worktree and gate checkout runs before work starts
(package-lock.json: npm ci; pnpm-lock.yaml: pnpm install
--frozen-lockfile; uv.lock: uv sync; requirements.txt: a venv and pip
install; go.mod, Cargo.lock: none), and a .worktreeinclude for the
ignored .env files it finds, and a gate (a Makefile's test target: make
test; package.json's test script: npm test; go.mod: go test ./...;
Cargo.toml: cargo test; pytest's configuration: pytest). Suggestions are printed, never written, unless
you pass --accept-suggestions; --setup CMD sets the setup yourself.
--dry-run checks everything and prints the project and the suggestions,
writing nothing.

--agent names an [agents.NAME] table of config.toml or a built-in agent: ` +
			strings.Join(agent.ProfileNames(true), ", ") + ".",
		Example: `  buildstation project add ~/src/web
  buildstation project add ~/src/web --dry-run
  buildstation project add ~/src/web --accept-suggestions
  buildstation project add ~/src/api --setup "uv sync"
  buildstation project add . --name api --agent codex
  buildstation project add ~/src/tools --command sh ./agent.sh`,
		DisableFlagParsing: true,
		ValidArgsFunction:  e.completeProjectAdd,
		RunE: e.ownFlags(func(c *cobra.Command, home string, rest []string) error {
			if err := o.parse(rest); err != nil {
				return err
			}
			e.home = home
			return runE(o, nil, runF, projectAddRun)(c, nil)
		}),
	}
}

// parse reads PATH [--name N] [--setup CMD] [--accept-suggestions]
// [--dry-run] [--agent A | --command ARGV...]: --command ends the flags, so
// the agent's own flags pass through.
func (o *projectAddOptions) parse(args []string) error {
	np := &o.Project
	use := "usage: buildstation project add PATH [--name N] [--setup CMD] [--accept-suggestions] [--dry-run] [--agent NAME | --command ARGV...]"
	for i := 0; i < len(args); i++ {
		a := args[i]
		flag, val, hasVal := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		switch {
		case flag == "-accept-suggestions" && !hasVal:
			o.Accept = true
		case flag == "-dry-run" && !hasVal:
			np.DryRun = true
		case flag == "-setup":
			if !hasVal {
				if i+1 >= len(args) {
					return usagef("%s needs a value; %s", a, use)
				}
				i++
				val = args[i]
			}
			np.Setup, o.SetupGiven = val, true
		case a == "--command" || a == "-command":
			np.Command = args[i+1:]
			if len(np.Command) == 0 {
				return usagef("--command needs the program to run; %s", use)
			}
			i = len(args)
		case flag == "-name" || flag == "-agent" || flag == "name" || flag == "agent":
			if !hasVal {
				if i+1 >= len(args) {
					return usagef("%s needs a value; %s", a, use)
				}
				i++
				val = args[i]
			}
			if strings.TrimPrefix(flag, "-") == "name" {
				np.Name = val
			} else {
				np.Agent = val
			}
		case strings.HasPrefix(a, "-") && a != "-":
			return usagef("unknown flag %s; %s", a, use)
		case np.Path == "":
			np.Path = a
		default:
			return usagef("one folder only (got %q and %q); %s", np.Path, a, use)
		}
	}
	if np.Path == "" {
		return usagef("the project's folder is missing; %s", use)
	}
	if np.Agent != "" && len(np.Command) > 0 {
		return usagef("pass --agent or --command, not both")
	}
	abs, err := filepath.Abs(np.Path)
	if err != nil {
		return fmt.Errorf("folder %q: %w", np.Path, err)
	}
	np.Path = abs
	return nil
}

func projectAddRun(o *projectAddOptions) error {
	e, np := o.env, o.Project
	c, err := e.client()
	add := func(np supervisor.NewProject) (supervisor.AddedProject, error) {
		switch {
		case errors.Is(err, client.ErrNoStation):
			return e.projectAddOffline(np)
		case err != nil:
			return supervisor.AddedProject{}, err
		}
		return c.AddProject(e.ctx, np)
	}
	if o.Accept && !np.DryRun {
		// What is suggested is what a dry run finds; the person asked
		// for it, so it is written with the project.
		dry := np
		dry.DryRun = true
		seen, err := add(dry)
		if err != nil {
			return err
		}
		if s := seen.Suggested; s != nil {
			if !o.SetupGiven {
				np.Setup = s.Setup
			}
			np.Include = s.Include
			if s.Gate != "" {
				np.Settings = map[string]string{"gate": s.Gate}
			}
		}
	}
	added, err := add(np)
	if err != nil {
		return err
	}
	p := added.Project
	if np.DryRun {
		fmt.Fprintf(e.stdout, "would add project %s: %s, agent %s (dry run: nothing written)\n", textsafe.Line(p.Name), textsafe.Line(p.Path), textsafe.Line(p.Agent))
	} else {
		fmt.Fprintf(e.stdout, "added project %s: %s, agent %s\n", textsafe.Line(p.Name), textsafe.Line(p.Path), textsafe.Line(p.Agent))
	}
	if np.Setup != "" && !np.DryRun {
		fmt.Fprintf(e.stdout, "setup: %s (runs in each new worktree and gate checkout)\n", textsafe.Line(np.Setup))
	}
	if len(np.Include) > 0 && !np.DryRun {
		fmt.Fprintf(e.stdout, "wrote %s: %s\n", textsafe.Line(filepath.Join(p.Path, ".worktreeinclude")), textsafe.Line(strings.Join(np.Include, " ")))
	}
	if s := added.Suggested; s != nil {
		if !o.Accept || np.DryRun {
			np.Name = p.Name
			printSuggestion(e.stdout, *s, np)
		}
	}
	for _, s := range added.Steps {
		fmt.Fprintf(e.stdout, "before its first task: %s\n", textsafe.Line(s))
	}
	if np.DryRun {
		return nil
	}
	_, err = fmt.Fprintf(e.stdout, "give it a task: buildstation task add --project %s --title \"...\"\n", shellWord(p.Name))
	return err
}

// printSuggestion says what the folder's files suggest and how to take it.
func printSuggestion(w io.Writer, s supervisor.SetupSuggestion, np supervisor.NewProject) {
	if s.Setup != "" && s.Setup != np.Setup {
		fmt.Fprintf(w, "suggested setup: %s (from %s); not written: add it with --accept-suggestions or --setup %s\n",
			textsafe.Line(s.Setup), textsafe.Line(s.Because), shellWord(s.Setup))
	}
	if len(s.Include) > 0 {
		fmt.Fprintf(w, "suggested .worktreeinclude: %s (ignored files each worktree needs); not written: add it with --accept-suggestions\n",
			textsafe.Line(strings.Join(s.Include, " ")))
	}
	if s.Gate != "" {
		fmt.Fprintf(w, "suggested gate: %s (from %s); not written: add it with --accept-suggestions, or later: buildstation project set %s gate=%s\n",
			textsafe.Line(s.Gate), textsafe.Line(s.GateBecause), shellWord(np.Name), shellWord(s.Gate))
	}
}

// projectAddOffline edits config.toml itself when no station runs (a fresh
// install, before the first start): the same checks, through the same
// edit path, and the next station reads the file.
func (e *env) projectAddOffline(np supervisor.NewProject) (supervisor.AddedProject, error) {
	home, err := config.Home(e.home)
	if err != nil {
		return supervisor.AddedProject{}, err
	}
	if err := apitype.SecureHome(home); err != nil {
		return supervisor.AddedProject{}, err
	}
	cur, err := config.Load(home, config.Platform{})
	if err != nil {
		return supervisor.AddedProject{}, err
	}
	data, err := os.ReadFile(cur.Path)
	if err != nil {
		return supervisor.AddedProject{}, fmt.Errorf("read %s: %w", cur.Path, err)
	}
	out, cfg, err := config.AddProject(cur.Path, data, config.NewProject(np), cur.Platform)
	if err != nil {
		return supervisor.AddedProject{}, err
	}
	p := cfg.Projects[len(cfg.Projects)-1]
	if e.deps.Setup != nil {
		if err := e.deps.Setup.CheckFolder(e.ctx, p.Path); err != nil {
			return supervisor.AddedProject{}, err
		}
	}
	a, err := cfg.AgentFor(p)
	if err != nil || len(a.Command) == 0 {
		return supervisor.AddedProject{}, fmt.Errorf("project %s has no agent to run; pass --agent or --command", p.Name)
	}
	var steps []string
	if agents := e.deps.Agents; agents != nil {
		if _, err := agents.Find(a.Command[0]); err != nil {
			return supervisor.AddedProject{}, fmt.Errorf("%w; install it (or add its folder to PATH), or pass --command with the program to run", err)
		}
		steps = agents.Steps(a.Profile, p.Path)
	}
	agent := p.Agent
	if len(p.Command) > 0 {
		agent = strings.Join(p.Command, " ")
	}
	added := supervisor.AddedProject{Project: supervisor.ProjectInfo{Name: p.Name, Path: p.Path, Agent: agent}, Steps: steps}
	if adv := e.deps.Setup; adv != nil {
		if s := adv.Suggest(e.ctx, p.Path); s.Setup != "" || len(s.Include) > 0 || s.Gate != "" {
			added.Suggested = &s
		}
	}
	if np.DryRun {
		return added, nil
	}
	if len(np.Include) > 0 {
		if e.deps.Setup == nil {
			return supervisor.AddedProject{}, fmt.Errorf("this build cannot write a .worktreeinclude; write it by hand in %s", p.Path)
		}
		if err := e.deps.Setup.WriteInclude(p.Path, np.Include); err != nil {
			return supervisor.AddedProject{}, err
		}
	}
	if err := config.WriteFile(cur.Path, out); err != nil {
		return supervisor.AddedProject{}, err
	}
	return added, nil
}

// shellWord quotes s for a shell line when it needs it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t'\"$`\\!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
