package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

// The shape of a command (model: gh's pkg/cmd/pr/close/close.go): a file
// cli/<group>_<verb>.go holds an options struct (the *env of the
// invocation, then what the command line says), a constructor
// new<Group><Verb>Cmd(e, runF) that fills the options from the flags and
// the arguments, and a run function <group><Verb>Run(opts) that does the
// work. A test passes a runF to see the options a command line makes,
// with no station and no terminal; nil runs the command. The group's file
// registers the constructor with one line.

// runE is a command's RunE: set (nil: none) copies the arguments into o,
// or says why they are wrong, then runF (a test's) or run gets o.
func runE[O any](o *O, set func(c *cobra.Command, args []string) error, runF, run func(*O) error) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, args []string) error {
		if set != nil {
			if err := set(c, args); err != nil {
				return err
			}
		}
		if runF != nil {
			return runF(o)
		}
		return run(o)
	}
}

// firstArg is a set for runE: the command's one argument into *dst.
func firstArg(dst *string) func(*cobra.Command, []string) error {
	return func(_ *cobra.Command, args []string) error { *dst = args[0]; return nil }
}

// ask is a command that is one API verb: it dials the station of the
// chosen home, asks it (call), and prints the answer (print).
func ask[T any](e *env, call func(*client.Client) (T, error), print func(T) error) error {
	c, err := e.client()
	if err != nil {
		return err
	}
	v, err := call(c)
	if err != nil {
		return err
	}
	return print(v)
}

// tell is ask for a verb that answers nothing but whether it was done;
// line, when not "", is printed after it.
func tell(e *env, call func(*client.Client) error, line string) error {
	return ask(e, func(c *client.Client) (struct{}, error) { return struct{}{}, call(c) }, func(struct{}) error {
		if line == "" {
			return nil
		}
		return e.printf("%s\n", line)
	})
}

// printf writes to stdout and says whether it could.
func (e *env) printf(format string, a ...any) error {
	_, err := fmt.Fprintf(e.stdout, format, a...)
	return err
}
