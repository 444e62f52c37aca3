package app

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// testOnly is the one internal package the app's tests may use: how a test
// waits for what a real goroutine does. Nothing that ships reaches it.
const testOnly = "github.com/buildstation/buildstation/internal/testsupport/testwait"

// TestImports keeps the arrows pointing one way (docs/style.md 1): the UI talks
// to the station through its client, and main makes the fyne.App.
func TestImports(t *testing.T) {
	banned := []string{
		"os/exec",
		"fyne.io/fyne/v2/app",
		"github.com/creack/pty",
		"github.com/buildstation/buildstation/platform",
		"github.com/buildstation/buildstation/internal",
		"github.com/buildstation/buildstation/supervisor/store",
		"github.com/buildstation/buildstation/cli",
	}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == testOnly && strings.HasSuffix(f, "_test.go") {
				continue
			}
			for _, b := range banned {
				if p == b || strings.HasPrefix(p, b+"/") {
					t.Errorf("%s imports %s; the app package must not (see doc.go)", f, p)
				}
			}
		}
	}
}
