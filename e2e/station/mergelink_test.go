//go:build linux

package station_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/deeplink"
)

// A Windows toast's Merge on a finished notice is a buildstation:// link
// that Windows hands to "buildstation open"
// (buildstation://session/ID?do=merge&task=T&key=K). Handed one with the
// key of this station's token, open merges the task's work (no tray runs
// here to hand it to): main moves to the task's head. Any web page can
// open such a link: one without the key, or with the key of another
// task's Merge, merges nothing. View diff's link decides nothing.
func TestFinishedNoticeMergeLink(t *testing.T) {
	t.Parallel()
	repo := rig.GitRepo(t)
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", repo, "60s", "60s")))
	a := s.AddTask("web", "fix", "commit fixed; complete fixed it")
	s.WaitState(a, "done", 60*time.Second)
	sessionID := a + ".1" // its first attempt's, which the notice named
	head := strings.TrimSpace(rig.Git(t, repo, "rev-parse", rig.TaskBranch(t, repo, a)))
	main := strings.TrimSpace(rig.Git(t, repo, "rev-parse", "main"))
	if head == main {
		t.Fatalf("the task's head %s is main's already", head)
	}
	tok, err := os.ReadFile(filepath.Join(s.Home, "token"))
	if err != nil {
		t.Fatal(err)
	}
	merge := deeplink.Link{SessionID: sessionID, Verb: deeplink.VerbMerge, Task: a}
	other := merge
	other.Task = "t99"
	for name, key := range map[string]string{
		"no key":              "",
		"another task's key":  deeplink.DecisionKey(strings.TrimSpace(string(tok)), other),
		"another token's key": deeplink.DecisionKey("not this station's", merge),
	} {
		forged := merge
		forged.Key = key
		if _, stderr, _ := s.Run("open", forged.String()); !strings.Contains(stderr, "decides nothing") {
			t.Errorf("%s: open %s said %q; want that it decides nothing", name, forged, stderr)
		}
		if got := strings.TrimSpace(rig.Git(t, repo, "rev-parse", "main")); got != main {
			t.Fatalf("%s: a forged Merge link moved main to %s", name, got)
		}
	}

	merge.Key = deeplink.DecisionKey(strings.TrimSpace(string(tok)), merge)
	if out := s.Must("open", merge.String()); !strings.Contains(out, a+": merged") {
		t.Errorf("open with the Merge link said %q", out)
	}
	if got := strings.TrimSpace(rig.Git(t, repo, "rev-parse", "main")); got != head {
		t.Errorf("main is at %s after the Merge link, want the task's head %s", got, head)
	}
	if out := s.Must("task", "show", a); !strings.Contains(out, "merged:   into main at ") {
		t.Errorf("task show does not say the task was merged:\n%s", out)
	}
}
