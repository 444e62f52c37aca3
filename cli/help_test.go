package cli_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/cli"
)

var update = flag.Bool("update", false, "rewrite the help golden files in testdata/help")

// Every command's --help, as a person reads it, against a golden file: a
// change to any help text shows in review. `go test ./cli -run
// TestHelpGolden -update` rewrites them. Every command has an example, and
// `help CMD` says the same as `CMD --help`.
func TestHelpGolden(t *testing.T) {
	var walk func(c *cobra.Command)
	seen := 0
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		path := strings.Fields(c.CommandPath())[1:]
		r := run(t, "", append(append([]string{}, path...), "--help")...)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%v --help: exit %d, stderr %q", path, r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "Examples:") {
			t.Errorf("%v --help has no example:\n%s", path, r.stdout)
		}
		if h := run(t, "", append([]string{"help"}, path...)...); h.stdout != r.stdout {
			t.Errorf("help %v differs from %v --help", path, path)
		}
		name := strings.Join(append([]string{"buildstation"}, path...), "_") + ".txt"
		golden := filepath.Join("testdata", "help", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(r.stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if want, err := os.ReadFile(golden); err != nil {
			t.Errorf("%v: no golden file (run go test ./cli -run TestHelpGolden -update): %v", path, err)
		} else if string(want) != r.stdout {
			t.Errorf("%v --help changed; if on purpose, run go test ./cli -run TestHelpGolden -update\n--- got\n%s\n--- want\n%s", path, r.stdout, want)
		}
		seen++
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(cli.Command())
	if seen < 30 {
		t.Errorf("walked %d commands, want every one", seen)
	}
}

func TestVersionFlagAndCompletion(t *testing.T) {
	// Answered before the tree is built, and as cobra answers them.
	for _, v := range [][]string{{"--version"}, {"-v"}, {"version"}, {"--home", t.TempDir(), "--version"}} {
		if r := run(t, "", v...); r.code != 0 || r.stdout != "buildstation "+cli.Version+"\n" || r.stderr != "" {
			t.Errorf("%q: %d %q %q", v, r.code, r.stdout, r.stderr)
		}
	}
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		if r := run(t, "", "completion", sh); r.code != 0 || !strings.Contains(r.stdout, "buildstation") {
			t.Errorf("completion %s: exit %d, %d bytes, stderr %q", sh, r.code, len(r.stdout), r.stderr)
		}
	}
	// What the scripts ask the program: the subcommands of task, the
	// values of --state.
	r := run(t, "", "__complete", "task", "")
	for _, want := range []string{"add\t", "ls\t", "show\t", "requeue\t", "cancel\t"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("completing task offers no %q:\n%s", want, r.stdout)
		}
	}
	if r := run(t, "", "__complete", "task", "ls", "--state", "bl"); !strings.Contains(r.stdout, "blocked") {
		t.Errorf("completing --state: %q", r.stdout)
	}
}
