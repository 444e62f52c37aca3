package osdefaults

import (
	"errors"
	"runtime"
	"testing"
)

func TestTmuxIsTheDefaultOnMacOSWhenInstalled(t *testing.T) {
	if got := tmuxIfFound(func(string) (string, error) { return "/usr/bin/tmux", nil }); got.Backend != "tmux" {
		t.Errorf("tmux on PATH: backend %q, want tmux", got.Backend)
	}
	if got := tmuxIfFound(func(string) (string, error) { return "", errors.New("not found") }); got.Backend != "" {
		t.Errorf("no tmux: backend %q, want none (pty)", got.Backend)
	}
	if runtime.GOOS != "darwin" && Config().Backend != "" {
		t.Errorf("on %s the backend default is %q, want none (pty)", runtime.GOOS, Config().Backend)
	}
}
