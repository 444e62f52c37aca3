package childproc

import (
	"context"
	"os/exec"
	"testing"
)

// Every constructor hands back a command whose attributes a caller can
// amend: a nil SysProcAttr would make `cmd.SysProcAttr.X = …` panic.
func TestAttrsSet(t *testing.T) {
	for _, c := range []*exec.Cmd{Command("git", "version"), CommandContext(context.Background(), "git", "version")} {
		if c.SysProcAttr == nil {
			t.Errorf("%s: SysProcAttr is nil", c)
		}
	}
}
