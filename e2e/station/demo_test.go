//go:build linux

package station_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A newcomer's first command, `buildstation demo --headless`, returns by
// itself: exit 0 once every demo task has settled, the station stopped.
func TestHeadlessDemoEnds(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "demo")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, rig.Bin(), "demo", "--headless", "--home", home)
	cmd.Env = rig.Env(rig.Bin(), home)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the demo did not end within 4 minutes:\n%s", out)
	}
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	for _, want := range []string{"every demo task is settled; stopping the demo", "The demo station stopped"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the narration lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "go-build") {
		t.Errorf("a hint names a temporary go-build path:\n%s", out)
	}
}
