package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// name is a command's path without the program: "task show".
func name(c *cobra.Command) string {
	return strings.TrimPrefix(c.CommandPath(), "buildstation ")
}

// positional checks that a command got between min and max arguments (max
// < 0: no limit), and otherwise shows the contract's usage line.
func positional(min, max int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) < min || (max >= 0 && len(args) > max) {
			return usagef("usage: %s", usageOf(name(c)))
		}
		return nil
	}
}

// flagError words a bad flag as one sentence with the way to help. The
// wording is the one scripts have matched since the first release
// ("flag provided but not defined: -x").
func flagError(c *cobra.Command, err error) error {
	msg, sep := err.Error(), "; "
	switch {
	case strings.HasPrefix(msg, "flag needs an argument: ") && strings.Contains(msg, "home"):
		return usagef("--home needs a folder")
	case strings.HasPrefix(msg, "unknown flag: "):
		typed := strings.TrimLeft(strings.TrimPrefix(msg, "unknown flag: "), "-")
		msg = "flag provided but not defined: -" + typed
		if s := flagSuggestion(c, typed); s != "" {
			msg, sep = msg+"; did you mean --"+s+"?", " "
		}
	case strings.HasPrefix(msg, "unknown shorthand flag: "):
		if i := strings.LastIndex(msg, " in "); i >= 0 {
			msg = "flag provided but not defined: -" + strings.TrimLeft(msg[i+len(" in "):], "-")
		}
	case strings.HasPrefix(msg, "flag needs an argument: "):
		arg := strings.TrimPrefix(msg, "flag needs an argument: ")
		if i := strings.LastIndex(arg, " in "); i >= 0 { // 'x' in -x
			arg = arg[i+len(" in "):]
		}
		msg = "flag needs an argument: -" + strings.TrimLeft(arg, "-")
	}
	n := name(c)
	return usagef("%s: %s%ssee \"buildstation %s -h\"", n, msg, sep, n)
}

// flagSuggestion is the flag of c nearest to typed (an edit or two away,
// or typed is the start of it), or "".
func flagSuggestion(c *cobra.Command, typed string) string {
	best, bestD := "", 3
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(typed, f.Name)
		if strings.HasPrefix(f.Name, typed) && len(typed) >= 2 {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = f.Name, d
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// usageOf is the contract's usage line of a command.
func usageOf(name string) string {
	for line := range strings.Lines(usageText) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "buildstation "+name+" ") || line == "buildstation "+name {
			return line
		}
	}
	return "buildstation " + name
}

// usageText is the contract's usage line of every command, what a wrong
// number of arguments is answered with.
const usageText = `usage:
  buildstation task add --project P --title T [--body B | --body-file F] [--json]
  buildstation task ls [--state S] [--project P] [--limit N] [--after ID] [--json]
  buildstation task show ID [--json]
  buildstation task diff ID [--stat]
  buildstation task accept ID [--note TEXT]
  buildstation task merge ID [--into BRANCH]
  buildstation task requeue ID [--note TEXT]
  buildstation task cancel ID
  buildstation session ls [--json]
  buildstation session attach ID
  buildstation session send ID TEXT
  buildstation logs ID [-f] [--raw]
  buildstation status [--json]
  buildstation project add PATH [--name N] [--agent NAME | --command ARGV...]
  buildstation project rm NAME
  buildstation project ls [--json]
  buildstation project pause NAME [--reason R]
  buildstation project resume NAME
  buildstation project set NAME KEY=VALUE...
  buildstation board migrate|status [--json]
  buildstation agent complete --summary TEXT
  buildstation agent block --reason TEXT
  buildstation agent progress TEXT
  buildstation agent status working|reviewing
  buildstation agent hook
  buildstation agent review approve|changes [--notes TEXT]
  buildstation version
  buildstation daemon [--home DIR]
  buildstation demo [--headless [--keep]]
  buildstation service install|uninstall|start|stop|status|pause|resume
  buildstation open [SESSION-ID]
Every command takes --home DIR (default $BUILDSTATION_HOME, else the user config folder).
`
