package cli

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// commandList is what an unknown verb's error offers: every command the
// tree has, in its order, so none is left out (logs was).
func commandList(root *cobra.Command) string {
	var names []string
	for _, s := range root.Commands() {
		if s.IsAvailableCommand() && s.Name() != "help" && s.Name() != "completion" {
			names = append(names, s.Name())
		}
	}
	return strings.Join(names, ", ")
}

// didYouMean is cobra's suggestion for a mistyped subcommand of c, as the
// start of a sentence ("did you mean "task"? "), or "".
func didYouMean(c *cobra.Command, typed string) string {
	c.SuggestionsMinimumDistance = 2
	s := c.SuggestionsFor(typed)
	if len(s) == 0 {
		return ""
	}
	prefix := strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), "buildstation"), " ")
	if prefix != "" {
		prefix += " "
	}
	return fmt.Sprintf("did you mean %q? ", prefix+s[0])
}

// Command groups in the top-level help.
const (
	groupBoard   = "board"
	groupStation = "station"
	groupAgent   = "agent"
)

// root is the whole command tree of one invocation. Every command's help
// says what it does with an example; flags are GNU style (--flag value,
// --flag=value) and may come before, between or after the arguments.
func (e *env) root() *cobra.Command {
	root := &cobra.Command{
		Use:   "buildstation",
		Short: "Supervise AI coding-agent sessions",
		Long: `Build Station supervises AI coding-agent sessions (Claude Code, Codex, Gemini
or any command) on your own machine. It takes tasks from a board, runs one
agent per task in a pseudo-terminal, wakes a quiet agent with a typed nudge,
blocks a stuck one without losing its work, and shows it all in the tray.

Without a command, buildstation starts the tray (a cgo build). Every command
takes --home DIR; the default home is $BUILDSTATION_HOME, else the user
config folder's BuildStation.`,
		Example: `  buildstation demo --headless            # the whole lifecycle in a minute
  buildstation daemon                      # run the station in this terminal
  buildstation task add --project web --title "Fix the login page"
  buildstation status
  buildstation help task`,
		Version:       Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          unknownCommand,
		RunE: func(c *cobra.Command, _ []string) error {
			return usagef("a command is missing; use one of %s", commandList(c.Root()))
		},
		CompletionOptions: cobra.CompletionOptions{HiddenDefaultCmd: false},
	}
	root.SetVersionTemplate("buildstation {{.Version}}\n")
	root.PersistentFlags().StringVar(&e.home, "home", "", "the station's home `folder` (default $BUILDSTATION_HOME, else the user config folder)")
	root.SetFlagErrorFunc(flagError)
	root.AddGroup(
		&cobra.Group{ID: groupBoard, Title: "Tasks, sessions and projects:"},
		&cobra.Group{ID: groupStation, Title: "The station and the tray:"},
		&cobra.Group{ID: groupAgent, Title: "Inside a session:"},
	)
	for _, c := range e.boardCommands() {
		c.GroupID = groupBoard
		root.AddCommand(c)
	}
	for _, c := range e.stationCommands() {
		c.GroupID = groupStation
		root.AddCommand(c)
	}
	agent := e.agentCommand()
	agent.GroupID = groupAgent
	root.AddCommand(agent)
	root.SetHelpCommandGroupID(groupStation)
	root.SetCompletionCommandGroupID(groupStation)
	return root
}

// group is a command with subcommands only: run bare or with an unknown
// subcommand, it says which exist.
func group(use, short, long, example string, subs ...*cobra.Command) *cobra.Command {
	g := &cobra.Command{
		Use: use + " COMMAND", Short: short, Long: long, Example: example,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			var names []string
			for _, s := range c.Commands() {
				if s.IsAvailableCommand() {
					names = append(names, s.Name())
				}
			}
			slices.Sort(names)
			if len(args) == 0 {
				return usagef("%s needs a subcommand: %s", use, strings.Join(names, ", "))
			}
			return usagef("unknown command %q; %suse one of %s", use+" "+args[0], didYouMean(c, args[0]), use+" "+strings.Join(names, ", "+use+" "))
		},
	}
	g.AddCommand(subs...)
	return g
}

func unknownCommand(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("unknown command %q; %suse one of %s", args[0], didYouMean(c, args[0]), commandList(c.Root()))
	}
	return nil
}

// Command is the command tree as a program's documentation sees it (man
// pages, completion scripts); it runs nothing.
func Command() *cobra.Command {
	e := &env{ctx: context.Background(), stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	return e.root()
}
