//go:build linux

package station_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// pasteBody is the prompt the ConPTY proof types too (.ci/windows-paste.sh):
// 200 lines with every character cmd.exe or a shell treats specially, and
// unicode.
func pasteBody() string {
	var b strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "line %03d: \" %% & ^ ! < > | ( ) ; , = $(x) `y` %%PATH%% \\ ü ✓ 日本\n", i)
	}
	return b.String()
}

// The claude profile's prompt, typed by the station through the pty
// backend into a TUI that turned bracketed paste on (internal/testsupport/pastereader),
// arrives as one paste, submitted once, every line intact. windows.yml runs
// the same reader through the station's ConPTY, where the one-line pointer
// to the prompt file is typed instead.
func TestPromptReachesABracketedPasteTUIOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reader := filepath.Join(dir, "pastereader")
	build := exec.Command("go", "build", "-o", reader, "github.com/buildstation/buildstation/internal/testsupport/pastereader")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the reader: %v\n%s", err, out)
	}
	out := filepath.Join(dir, "got")
	project := t.TempDir()
	cfg := fmt.Sprintf("max_sessions = 1\n\n[agents.reader]\ncommand = [%q, %q]\nprofile = \"claude\"\n\n[[projects]]\nname = \"paste\"\npath = %q\nagent = \"reader\"\nbackend = \"pty\"\n",
		reader, out, project)
	s := rig.StartOn(t, rig.WriteConfig(t, cfg))
	body := pasteBody()
	id := strings.TrimSpace(s.Must("task", "add", "--project", "paste", "--title", "paste proof", "--body", body))
	var rec struct {
		Submissions []string `json:"submissions"`
		Pastes      int      `json:"pastes"`
		PromptFile  string   `json:"prompt_file"`
		Prompt      string   `json:"prompt"`
	}
	rig.Eventually(t, 3*time.Minute, func() error {
		b, err := os.ReadFile(out + ".json")
		if err != nil {
			return err
		}
		return json.Unmarshal(b, &rec)
	}, "the reader's record", "station log:", s.Log, rig.Later(func() string { return "transcript:\n" + s.Transcript(id, 1) }))
	if len(rec.Submissions) != 1 || rec.Pastes != 1 {
		t.Fatalf("%d submissions in %d pastes, want 1 in 1: %q", len(rec.Submissions), rec.Pastes, rec.Submissions)
	}
	if rec.PromptFile != "" {
		t.Errorf("the pty backend typed the pointer line (%s), not the paste", rec.PromptFile)
	}
	for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if !strings.Contains(rec.Prompt, line+"\n") {
			t.Fatalf("the prompt lacks %q:\n%s", line, rec.Prompt)
		}
	}
}
