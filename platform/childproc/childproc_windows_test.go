package childproc

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

func TestNoWindowFlag(t *testing.T) {
	for _, c := range []*exec.Cmd{Command("git"), CommandContext(context.Background(), "git")} {
		if c.SysProcAttr.CreationFlags&Flags == 0 || c.SysProcAttr.HideWindow {
			t.Errorf("%s: SysProcAttr %+v: want CREATE_NO_WINDOW and not HideWindow (a GUI child must show)", c, *c.SysProcAttr)
		}
	}
}

var getConsoleWindow = syscall.NewLazyDLL("kernel32.dll").NewProc("GetConsoleWindow")

// consoleWindow is this process's console window handle: 0 when it has no
// console, or one without a window (CREATE_NO_WINDOW).
func consoleWindow() uintptr {
	h, _, _ := getConsoleWindow.Call()
	return h
}

// TestChildHasNoConsoleWindow starts this test binary again as a child
// through Command and asks it for its console window: it must have none.
// Under a console it inherits its parent's; from a GUI program (the
// windows.yml step builds this test with -H windowsgui) it would get a
// window of its own without the flag.
func TestChildHasNoConsoleWindow(t *testing.T) {
	if os.Getenv("CHILDPROC_PROBE") == "1" {
		if consoleWindow() != 0 {
			os.Stdout.WriteString("window\n")
		} else {
			os.Stdout.WriteString("none\n")
		}
		return
	}
	cmd := Command(os.Args[0], "-test.run=^TestChildHasNoConsoleWindow$")
	cmd.Env = append(os.Environ(), "CHILDPROC_PROBE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe child: %v\n%s", err, out)
	}
	if got := strings.Fields(string(out)); len(got) == 0 || got[0] != "none" {
		t.Errorf("the child started through childproc.Command has a console window: %q", out)
	}
}
