package pty

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
)

// argsRecorderEnv makes this test binary, started as an agent, write its
// arguments and then what it reads from its console to the named files,
// instead of running tests.
const argsRecorderEnv = "BUILDSTATION_PTY_TEST_RECORD"

func TestMain(m *testing.M) {
	if out := os.Getenv(argsRecorderEnv); out != "" {
		b, _ := json.Marshal(os.Args[1:])
		_ = os.WriteFile(out, b, 0o644)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// An npm shim (claude.cmd) is not run through cmd.exe: the program it
// points at starts directly and gets every argument intact, line breaks
// and cmd.exe's specials included.
func TestSpawnNpmShimRunsItsProgram(t *testing.T) {
	dir := tempDir(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.Create(exe)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(dst, src)
	src.Close()
	if cerr := dst.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	if err := os.WriteFile(filepath.Join(dir, "claude.cmd"), []byte(claudeShim), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "args.json")
	env := append(os.Environ(), "PATH="+dir+";"+os.Getenv("PATH"), argsRecorderEnv+"="+out)
	p := spawnWin(t, supervisor.SpawnSpec{Argv: append([]string{"claude"}, hostileArgs...), Env: env, Dir: dir})
	if code := waitWin(t, p); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	var got []string
	testwait.Eventually(t, 10*time.Second, func() error {
		b, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		return json.Unmarshal(b, &got)
	}, "the program to record its arguments")
	if !slices.Equal(got, hostileArgs) {
		t.Fatalf("the program got %q\nwant %q", got, hostileArgs)
	}
}
