package architecture

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestArchitecturePageListsEveryPackage fails when a package of the module
// is missing from docs/architecture.md's "Every package" table, or the
// table names a package that does not exist: a newcomer reads one page to
// find where a thing lives, so the page must not drift from the tree.
func TestArchitecturePageListsEveryPackage(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH to list the packages")
	}
	root := filepath.Join("..", "..", "..")
	page, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := listedPackages(string(page))
	if len(listed) == 0 {
		t.Fatal(`docs/architecture.md has no "## Every package" table of | ` + "`pkg`" + ` | lines`)
	}
	cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	var real []string
	for p := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, strings.TrimSuffix(mod, "/")), "/")
		if rel == "" {
			rel = "."
		}
		real = append(real, rel)
	}
	for _, p := range real {
		if !slices.Contains(listed, p) {
			t.Errorf("package %s is not in docs/architecture.md's \"Every package\" table; add a line saying what it holds", p)
		}
	}
	for _, p := range listed {
		if !slices.Contains(real, p) {
			t.Errorf("docs/architecture.md lists package %s, which does not exist; remove or rename its line", p)
		}
	}
}

var pkgLine = regexp.MustCompile("^\\| `([^`]+)` \\|")

// listedPackages reads the package column of the "## Every package" table.
func listedPackages(page string) []string {
	_, section, ok := strings.Cut(page, "\n## Every package\n")
	if !ok {
		return nil
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var out []string
	for line := range strings.SplitSeq(section, "\n") {
		if m := pkgLine.FindStringSubmatch(line); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}
