package architecture

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsNameFilesThatExist fails when README.md, a page of docs/ or a Go
// comment names a file or folder of this repository that is not there: a
// doc that points at a moved file sends the next reader nowhere, and
// nothing else notices.
//
// What counts as a name: a path whose first segment is a top-level entry
// of the repository (supervisor/station/watchdog.go, .ci/run, docs/watchdog.md),
// a bare file name ending in .go, .md or .sh, and a markdown link's
// target. A bare name is looked up where a reader would: a Go comment's
// own folder first (for .md also the root and docs/), a page's own folder
// for .md, anywhere in the repository for .go or .sh named from a page.
// Placeholders (<task-id>, …, *, {x}, $X) and URLs are not names.
func TestDocsNameFilesThatExist(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	r := newRepo(t, root)
	var bad []string
	for _, page := range r.pages() {
		for _, ref := range pageRefs(t, filepath.Join(root, page)) {
			if !r.resolves(filepath.Dir(page), ref, false) {
				bad = append(bad, page+": "+ref)
			}
		}
	}
	for _, src := range r.goFiles {
		for _, ref := range commentRefs(t, filepath.Join(root, src)) {
			if !r.resolves(filepath.Dir(src), ref, true) {
				bad = append(bad, src+": "+ref)
			}
		}
	}
	for _, b := range bad {
		t.Errorf("%s names a repository file that does not exist; fix the name or the file", b)
	}
}

// repo is the repository's files, walked once.
type repo struct {
	root     string
	top      map[string]bool     // top-level entries
	byBase   map[string][]string // base name → paths of files with it
	goFiles  []string
	mdInDocs []string
}

// skipDirs are folders that are not the repository's own text: caches,
// build output, generated man pages, and test data (which quotes
// arbitrary input).
var skipDirs = map[string]bool{".git": true, ".cache": true, "bin": true, "node_modules": true, "screenshots": true, "testdata": true, "man": true}

func newRepo(t *testing.T, root string) *repo {
	t.Helper()
	r := &repo{root: root, top: map[string]bool{}, byBase: map[string][]string{}}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !skipDirs[e.Name()] {
			r.top[e.Name()] = true
		}
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if skipDirs[d.Name()] && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		rel = filepath.ToSlash(rel)
		r.byBase[d.Name()] = append(r.byBase[d.Name()], rel)
		switch {
		case strings.HasSuffix(rel, ".go"):
			r.goFiles = append(r.goFiles, rel)
		case strings.HasPrefix(rel, "docs/") && strings.HasSuffix(rel, ".md"):
			r.mdInDocs = append(r.mdInDocs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *repo) pages() []string { return append([]string{"README.md"}, r.mdInDocs...) }

// generated are paths a make target writes and git ignores.
var generated = map[string]bool{"docs/man": true, "screenshots": true}

func (r *repo) exists(rel string) bool {
	if generated[rel] {
		return true
	}
	_, err := os.Stat(filepath.Join(r.root, filepath.FromSlash(rel)))
	return err == nil
}

// resolves reports whether ref, named in a file of folder dir, is there.
// A path whose first segment is not a top-level entry (logs/x.log,
// github.com/…, working/reviewing) is not the repository's and passes.
func (r *repo) resolves(dir, ref string, fromGo bool) bool {
	dir = filepath.ToSlash(dir)
	if strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../") {
		// From Go, a dot-slash path may also be a go command's package,
		// run from the root.
		return r.exists(filepath.ToSlash(filepath.Join(dir, ref))) ||
			fromGo && r.exists(filepath.ToSlash(filepath.Clean(ref)))
	}
	if first, _, ok := strings.Cut(ref, "/"); ok {
		return !r.top[first] || r.exists(ref)
	}
	if r.exists(filepath.ToSlash(filepath.Join(dir, ref))) {
		return true
	}
	switch {
	case !fromGo && strings.HasSuffix(ref, ".md"):
		return true // a page links its pages; a bare name is a user's file
	case strings.HasSuffix(ref, ".md"):
		return r.exists(ref) || r.exists("docs/"+ref)
	case fromGo:
		return false
	default:
		return len(r.byBase[ref]) > 0
	}
}

var (
	backtick = regexp.MustCompile("`([^`\n]+)`")
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	word     = regexp.MustCompile(`[A-Za-z0-9_.\-/]+`)
	fileName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_\-]*(\.[A-Za-z0-9_\-]+)*\.(go|md|sh)$`)
	// qualified is a Go identifier after a package path (pkg.Name).
	qualified = regexp.MustCompile(`\.[A-Z][A-Za-z0-9_]*$`)
)

// pageRefs are the names a markdown page gives: its links' targets
// (relative to the page) and the path-like words of its code spans.
func pageRefs(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	var refs []string
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		target, _, _ := strings.Cut(m[1], "#")
		if target != "" && !strings.Contains(target, ":") {
			refs = append(refs, "./"+target)
		}
	}
	for _, m := range backtick.FindAllStringSubmatch(text, -1) {
		refs = append(refs, pathWords(m[1])...)
	}
	return refs
}

// commentRefs are the path-like words of a Go file's comments.
func commentRefs(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, g := range f.Comments {
		refs = append(refs, pathWords(g.Text())...)
	}
	return refs
}

// pathWords picks from text the words that name a file: a relative path
// with a folder, or a bare .go/.md/.sh name.
func pathWords(text string) []string {
	var out []string
	for _, field := range strings.Fields(text) {
		if strings.ContainsAny(field, "<>…*{}$~%@:=") {
			continue // a placeholder, a URL, an email, a flag's value
		}
		for _, w := range word.FindAllString(field, -1) {
			w = strings.TrimRight(w, ".,;-")
			w = strings.TrimSuffix(w, "/")
			if strings.Contains(w, "/") {
				w = qualified.ReplaceAllString(w, "")
			}
			switch {
			case w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "-"):
			case fileName.MatchString(w):
				out = append(out, w)
			case strings.Contains(w, "/"):
				out = append(out, w)
			}
		}
	}
	return out
}

// TestReadmeSaysEachThingOnce fails when a paragraph of README.md is
// repeated in a page of docs/: the README introduces, each page of docs/
// holds its topic, and a paragraph kept in two places drifts in one.
func TestReadmeSaysEachThingOnce(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	r := newRepo(t, root)
	pages := map[string]string{}
	for _, page := range r.mdInDocs {
		b, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		pages[page] = strings.Join(strings.Fields(string(b)), " ")
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, para := range strings.Split(string(readme), "\n\n") {
		p := strings.Join(strings.Fields(para), " ")
		if len(p) < 80 || strings.HasPrefix(p, "```") || strings.HasPrefix(p, "|") {
			continue // headings, short lines, code and tables may be shared
		}
		for page, text := range pages {
			if strings.Contains(text, p) {
				t.Errorf("README.md repeats a paragraph of %s; keep it in one place: %.70q…", page, p)
			}
		}
	}
}

// TestEveryPackageHasADocFile: docs/style.md asks each package to say what
// it is for in a doc.go, so a reader finds it without opening every file.
func TestEveryPackageHasADocFile(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	r := newRepo(t, root)
	dirs := map[string]bool{}
	for _, f := range r.goFiles {
		if !strings.HasSuffix(f, "_test.go") {
			dirs[filepath.Dir(f)] = true
		}
	}
	for dir := range dirs {
		if !r.exists(filepath.ToSlash(filepath.Join(dir, "doc.go"))) {
			t.Errorf("package %s has no doc.go; move its package comment there", dir)
		}
	}
}
