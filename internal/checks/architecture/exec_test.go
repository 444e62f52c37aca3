package architecture

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// childExceptions are the folders that may build an exec.Cmd themselves,
// and why: everything else goes through platform/childproc, so that on
// Windows no child of the station, the tray or the CLI opens a console
// window of its own.
var childExceptions = map[string]string{
	"platform/childproc":           "the constructor itself",
	"platform/pty":                 "spawns agents inside a pseudo-terminal (a ConPTY on Windows): that terminal is their console",
	"platform/tmux":                "unix only; its clients run tmux, the sessions' terminal",
	"internal/fakeagent":           "runs inside a session's terminal; its children share that console, as a real agent's do",
	"bench":                        "measurement programs run on Linux by make bench; never shipped",
	"e2e":                          "tests",
	"internal/checks/architecture": "tests",
}

// TestOneChildConstructor fails when a file (of any OS: build tags are not
// looked at) outside childExceptions calls exec.Command or
// exec.CommandContext, or makes an exec.Cmd literal. Tests are left out.
func TestOneChildConstructor(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if _, ok := childExceptions[rel]; ok {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		bad = append(bad, execCalls(t, p, rel)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("%s: use childproc.Command or childproc.CommandContext (platform/childproc), so the child opens no console window on Windows; a new exception goes in childExceptions with its reason", b)
	}
}

// execCalls are the places in one file that make an exec.Cmd directly.
func execCalls(t *testing.T, path, rel string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", rel, err)
	}
	name := ""
	for _, imp := range f.Imports {
		if v, _ := strconv.Unquote(imp.Path.Value); v == "os/exec" {
			name = "exec"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	if name == "" {
		return nil
	}
	isExec := func(e ast.Expr, sel ...string) bool {
		s, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := s.X.(*ast.Ident)
		if !ok || id.Name != name {
			return false
		}
		for _, want := range sel {
			if s.Sel.Name == want {
				return true
			}
		}
		return false
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.CallExpr:
			if isExec(v.Fun, "Command", "CommandContext") {
				out = append(out, rel+":"+strconv.Itoa(fset.Position(v.Pos()).Line)+" calls "+name+"."+v.Fun.(*ast.SelectorExpr).Sel.Name)
			}
			if id, ok := v.Fun.(*ast.Ident); ok && id.Name == "new" && len(v.Args) == 1 && isExec(v.Args[0], "Cmd") {
				out = append(out, rel+":"+strconv.Itoa(fset.Position(v.Pos()).Line)+" makes new("+name+".Cmd)")
			}
		case *ast.CompositeLit:
			if isExec(v.Type, "Cmd") {
				out = append(out, rel+":"+strconv.Itoa(fset.Position(v.Pos()).Line)+" makes an "+name+".Cmd literal")
			}
		}
		return true
	})
	return out
}
