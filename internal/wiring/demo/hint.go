package demo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Command is how a person in another terminal runs this very binary on
// home, as a shell line prefix: "BUILDSTATION_HOME=/x buildstation" when
// the buildstation on PATH is this program, else its full path (a `go run`
// binary, or an install folder not on PATH). A hint that names a command
// the shell cannot find is worse than none.
func Command(self, home string) string {
	prog := shellQuote(self)
	if p, err := exec.LookPath("buildstation"); err == nil && sameFile(p, self) {
		prog = "buildstation"
	} else if goRun(self) {
		// `go run .` builds into a temporary folder that is gone when the
		// demo ends: name what the person ran instead.
		prog = "go run ."
	}
	return "BUILDSTATION_HOME=" + shellQuote(home) + " " + prog
}

// goRun says whether self is a binary `go run` built: the go command puts
// it at $GOTMPDIR/go-build…/b001/exe/NAME.
func goRun(self string) bool {
	dir := filepath.Dir(self)
	return filepath.Base(dir) == "exe" && strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(dir))), "go-build")
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
