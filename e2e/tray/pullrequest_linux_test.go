//go:build linux && cgo

package tray_test

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/standin/ghapi"
)

// The diff window's Open pull request, clicked as a person would, through
// the real station and a GitHub stand-in (real HTTP on loopback): the
// task's branch is pushed to the project's remote, the pull request is
// opened on the stand-in, and the dialog that follows says where it is:
// its Open in browser hands the browser (xdg-open, a script here) the
// pull request's URL, the one `task pr` prints.
func TestOpenPullRequestFromTheDiffWindow(t *testing.T) {
	d := newDesktop(t)
	gh := ghapi.New("acme", "web", "tok")
	t.Cleanup(gh.Close)
	seed := rig.GitRepo(t)
	bare := filepath.Join(t.TempDir(), "web.git")
	rig.Git(t, seed, "clone", "-q", "--bare", seed, bare)
	dir := filepath.Join(t.TempDir(), "web")
	rig.Git(t, filepath.Dir(dir), "clone", "-q", bare, dir)
	home := rig.WriteConfig(t, rig.ProjectTOML("web", dir, "60s", "60s", `remote = "origin"`)+
		fmt.Sprintf("\n[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"acme/web\"\napi_url = %q\ntoken_env = \"BS_TEST_GH_TOKEN\"\n", gh.APIURL()))
	s := rig.StartOn(t, home, "BS_TEST_GH_TOKEN=tok")
	id := strings.TrimSpace(s.Must("task", "add", "--project", "web", "--title", "fix login", "--body", "script: commit work; complete fixed the login form"))
	s.WaitState(id, "done", 60*time.Second)

	// The browser: an xdg-open that writes down what it was handed.
	bin := t.TempDir()
	opened := filepath.Join(bin, "opened")
	writeExec(t, filepath.Join(bin, "xdg-open"), "#!/bin/sh\nprintf '%s\\n' \"$1\" >> "+opened+"\n")
	env := append(rig.Env(rig.Bin(), home, "PATH="+bin+":"+filepath.Dir(rig.Bin())+":/usr/bin:/bin"), d.env...)
	trayOut, _ := startTrayEnv(t, home, d.display, d.bus, env)
	t.Cleanup(func() {
		if t.Failed() {
			d.shoot("pr-failed")
			t.Logf("tray:\n%s\ntray.log:\n%s", trayOut.String(), lastLines(readLog(home), 40))
		}
	})
	dash := d.window("^Build Station$", 90*time.Second)
	// The done card's Merge on the board: the dashboard has read it.
	d.stableButton(d.windowRect(dash), 60*time.Second, "the done card's Merge", first)

	d.xdo("windowfocus", "--sync", dash)
	d.xdo("key", "--delay", "150", "Escape", "Escape", "Down", "d")
	diff := d.window("^Diff "+id+" ", 60*time.Second)
	dr := d.windowRect(diff)
	merge := d.stableButton(dr, 30*time.Second, "Merge in the diff window", last)
	time.Sleep(time.Second) // the diff read
	// Open pull request sits right of Merge, in the same row.
	d.click(image.Rect(merge.Max.X+20, merge.Min.Y, merge.Max.X+60, merge.Max.Y))
	rig.Eventually(t, 60*time.Second, func() error {
		if n := len(gh.Pulls()); n != 1 {
			return fmt.Errorf("%d pull requests on the stand-in", n)
		}
		return nil
	}, "the pull request opened on the stand-in")
	branch := rig.TaskBranch(t, dir, id)
	if p := gh.Pulls()[0]; p.Head != branch || p.Base != "main" || p.Title != "fix login" {
		t.Errorf("the pull request is %+v, want %s into main titled fix login", p, branch)
	}
	if got, want := strings.TrimSpace(rig.Git(t, bare, "rev-parse", branch)), strings.TrimSpace(rig.Git(t, dir, "rev-parse", branch)); got != want {
		t.Errorf("the remote's %s is at %s, not the task's head %s", branch, got, want)
	}
	url := strings.TrimSpace(s.Must("task", "pr", id)) // the same one, asked again
	// The dialog's Open in browser: the one primary button left on the
	// diff window (the dialog's shade dims Merge).
	open := d.stableButton(dr, 30*time.Second, "Open in browser in the pull request's dialog", func(bs []image.Rectangle) image.Rectangle {
		for _, b := range bs {
			if b != merge {
				return b
			}
		}
		return image.Rectangle{}
	})
	if open.Empty() {
		t.Fatal("no Open in browser")
	}
	d.shoot("pull-request")
	d.click(open)
	rig.Eventually(t, 30*time.Second, func() error {
		b, _ := os.ReadFile(opened)
		if strings.TrimSpace(string(b)) != url {
			return fmt.Errorf("the browser was handed %q, want %q", b, url)
		}
		return nil
	}, "the browser handed the pull request's URL")
}
