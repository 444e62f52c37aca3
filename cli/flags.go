package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// cmdFlags is one command's flag set, with --home and --json available to
// every command that wants them.
type cmdFlags struct {
	*flag.FlagSet
	name string
}

func (e *env) flags(name string) *cmdFlags {
	fs := flag.NewFlagSet("buildstation "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are ours to word, in one sentence
	fs.StringVar(&e.home, "home", e.home, "the station's home `folder`")
	return &cmdFlags{FlagSet: fs, name: name}
}

// parse parses args with flags allowed before, between and after the
// positional arguments ("task show ID --json"), and checks that there are
// between min and max positionals (max < 0: no limit). "--" ends the flags.
func (f *cmdFlags) parse(e *env, args []string, min, max int) ([]string, error) {
	var pos []string
	for {
		if err := f.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(e.stdout, "usage: %s\n", usageOf(f.name))
				f.SetOutput(e.stdout)
				f.PrintDefaults()
				return nil, errHelp
			}
			return nil, usagef("%s: %v; see \"buildstation %s -h\"", f.name, err, f.name)
		}
		rest := f.Args()
		// Parse stops at the first positional, or after "--", which it
		// swallows: then everything left is positional.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	if len(pos) < min || (max >= 0 && len(pos) > max) {
		return nil, usagef("usage: %s", usageOf(f.name))
	}
	return pos, nil
}

// parse is the shorthand for a command with no flags of its own.
func (e *env) parse(name string, args []string, min, max int) ([]string, error) {
	return e.flags(name).parse(e, args, min, max)
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

const usageText = `usage:
  buildstation task add --project P --title T [--body B | --body-file F] [--json]
  buildstation task ls [--state S] [--project P] [--json]
  buildstation task show ID [--json]
  buildstation task requeue ID [--note TEXT]
  buildstation task cancel ID
  buildstation session ls [--json]
  buildstation session attach ID
  buildstation session send ID TEXT
  buildstation status [--json]
  buildstation project ls [--json]
  buildstation project pause NAME [--reason R]
  buildstation project resume NAME
  buildstation board migrate|status [--json]
  buildstation agent complete --summary TEXT
  buildstation agent block --reason TEXT
  buildstation agent progress TEXT
  buildstation agent status working|reviewing
  buildstation agent hook
  buildstation agent review approve|changes [--notes TEXT]
  buildstation version
  buildstation daemon [--home DIR]
  buildstation demo [--headless]
  buildstation service install|uninstall|start|stop|status
  buildstation open [SESSION-ID]
Every command takes --home DIR (default $BUILDSTATION_HOME, else the user config folder).
`
