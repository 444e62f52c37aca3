package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/cli"
)

// A command registers itself from its own file (func init): one whose file
// no longer registers it would vanish from the tree, help and all. Every
// help golden names a command the tree has.
func TestEveryHelpGoldenHasItsCommand(t *testing.T) {
	have := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		have[strings.ReplaceAll(c.CommandPath(), " ", "_")+".txt"] = true
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(cli.Command())
	goldens, err := filepath.Glob(filepath.Join("testdata", "help", "*.txt"))
	if err != nil || len(goldens) < 30 {
		t.Fatalf("%d help goldens (%v)", len(goldens), err)
	}
	for _, g := range goldens {
		if !have[filepath.Base(g)] {
			t.Errorf("%s: no such command in the tree; is it registered (func init in its file)?", g)
		}
	}
}
