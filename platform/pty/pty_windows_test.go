package pty

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/buildstation/buildstation/supervisor"
)

// These run on Windows and under Wine (.ci/wine-run.sh on the test
// binary). Wine 8's ConPTY delivers no output, so they check what an agent
// did through files, never through Read.

func spawnWin(t *testing.T, spec supervisor.SpawnSpec) supervisor.Proc {
	t.Helper()
	p, err := New().Spawn(spec)
	if err != nil {
		t.Fatalf("Spawn(%q): %v", spec.Argv, err)
	}
	go func() { // a reader, as the session has; Wine may send nothing
		b := make([]byte, 4096)
		for {
			if _, err := p.Read(b); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { _ = p.Stop(0); _ = p.Close() })
	return p
}

// tempDir is t.TempDir without its cleanup, which fails under Wine
// ("Invalid function" removing a folder a child process used).
func tempDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "ptytest")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// underWine reports whether this is Wine rather than Windows.
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}

func waitWin(t *testing.T, p supervisor.Proc) int {
	t.Helper()
	ch := make(chan int, 1)
	go func() { code, _ := p.Wait(); ch <- code }()
	select {
	case c := <-ch:
		return c
	case <-time.After(30 * time.Second):
		t.Fatal("Wait never returned")
		return 0
	}
}

func TestSpawnExitCode(t *testing.T) {
	p := spawnWin(t, supervisor.SpawnSpec{Argv: []string{"cmd.exe", "/c", "exit 3"}})
	if code := waitWin(t, p); code != 3 {
		t.Errorf("exit code %d; want 3", code)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// A .cmd shim gets its arguments intact, cmd metacharacters and all, as
// npm's shims pass them on: %* keeps the quotes.
func TestSpawnBatchArgs(t *testing.T) {
	dir := tempDir(t)
	script := filepath.Join(dir, "agent.cmd")
	out := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(script, []byte("@echo off\r\n>\""+out+"\" echo %*\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+dir+";"+os.Getenv("PATH"), "SECRET=leaked")
	p := spawnWin(t, supervisor.SpawnSpec{Argv: []string{"agent", "fix & the %SECRET% bug", "two words"}, Env: env, Dir: dir})
	if code := waitWin(t, p); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `"fix & the %SECRET% bug" "two words"`
	if underWine() {
		// Wine's cmd.exe lacks the dynamic %cd% that the %-escape uses, so
		// %SECRET% expands there; Windows's does not.
		want = `"fix & the leaked bug" "two words"`
	}
	if got := strings.TrimSpace(string(b)); got != want {
		t.Errorf("the script saw %s; want %s", got, want)
	}
}

// Stop ends a grandchild too: it is in the job from the start.
func TestStopKillsJob(t *testing.T) {
	dir := tempDir(t)
	marker := filepath.Join(dir, "late.txt")
	// The grandchild writes the marker after ~3 s unless killed first.
	p := spawnWin(t, supervisor.SpawnSpec{Argv: []string{"cmd.exe", "/c",
		`start /b cmd.exe /c "ping -n 4 127.0.0.1 >nul & echo late>` + marker + `" & ping -n 30 127.0.0.1 >nul`}})
	time.Sleep(500 * time.Millisecond) // let the tree start; a real process, not a timer
	if err := p.Stop(0); err != nil {
		t.Fatal(err)
	}
	waitWin(t, p)
	time.Sleep(5 * time.Second) // past the grandchild's own delay
	if _, err := os.Stat(marker); err == nil {
		t.Error("the grandchild survived Stop and wrote its marker")
	}
}

func TestJobCPU(t *testing.T) {
	p := spawnWin(t, supervisor.SpawnSpec{Argv: []string{"cmd.exe", "/c", "for /l %i in (1,1,20000) do @rem"}})
	waitWin(t, p)
	if cpu := p.(JobAccounter).JobCPU(); cpu <= 0 {
		t.Logf("JobCPU = %v (Wine may not account job CPU)", cpu)
	} else {
		t.Logf("JobCPU = %v", cpu)
	}
}
