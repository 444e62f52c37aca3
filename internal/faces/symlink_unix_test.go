//go:build unix

package faces

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandOverFollowsALinkedFront: a front run through a symbolic link in
// another folder (Homebrew's bin/buildstation, which links the one in
// Build Station.app; a link a person puts in ~/.local/bin) hands its verb
// to the app beside the file the link names. On macOS os.Executable gives
// the link's path, so the front is given it here as self. The hand-over is
// a real exec, in a child of the test, of an app that records its
// arguments.
func TestHandOverFollowsALinkedFront(t *testing.T) {
	if link := os.Getenv("FACES_TEST_LINKED_FRONT"); link != "" {
		_, err := HandOver(link, []string{"board", "status"})
		os.Stderr.WriteString("hand-over failed: " + err.Error() + "\n")
		os.Exit(3)
	}
	install := t.TempDir()
	ran := filepath.Join(install, "ran")
	if err := os.WriteFile(filepath.Join(install, Front), []byte("#!/bin/sh\nexit 9\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	app := "#!/bin/sh\necho \"$0 $*\" >'" + ran + "'\n"
	if err := os.WriteFile(filepath.Join(install, App), []byte(app), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), Front)
	if err := os.Symlink(filepath.Join(install, Front), link); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHandOverFollowsALinkedFront$")
	cmd.Env = append(os.Environ(), "FACES_TEST_LINKED_FRONT="+link)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the linked front's hand-over: %v\n%s", err, out)
	}
	got, err := os.ReadFile(ran)
	if err != nil {
		t.Fatalf("the app beside the link's target did not run: %v\n%s", err, out)
	}
	if want := filepath.Join(install, App) + " board status"; strings.TrimSpace(string(got)) != want {
		t.Errorf("the app ran as %q, want %q", strings.TrimSpace(string(got)), want)
	}
}
