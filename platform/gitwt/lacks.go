package gitwt

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// lackedEnvFiles are the .env files at the project's folder from that git
// ignores and its checkout at to does not have: the files a gate most
// often needs and a checkout never gets unless .worktreeinclude brings
// them. Only .env files: the same ones project add offers to include, and
// a name rare enough in a gate's output that naming it means needing it.
func lackedEnvFiles(ctx context.Context, from, to string) []string {
	found, _ := filepath.Glob(filepath.Join(from, ".env*"))
	var names []string
	for _, f := range found {
		if fi, err := os.Stat(f); err != nil || fi.IsDir() {
			continue
		}
		name := filepath.Base(f)
		if _, err := os.Lstat(filepath.Join(to, name)); err == nil {
			continue // brought in, or tracked
		}
		names = append(names, name)
	}
	ignored, err := checkIgnored(ctx, from, names)
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range names {
		if ignored[n] {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// namedIn are the names of files that out mentions as a whole name: ".env"
// in "FAIL: .env is missing" or "open /x/.env:", not in ".env.local" or
// "config.env".
func namedIn(out string, names []string) []string {
	var got []string
	for _, n := range names {
		for i := 0; ; {
			j := strings.Index(out[i:], n)
			if j < 0 {
				break
			}
			at, end := i+j, i+j+len(n)
			i = at + 1
			if at > 0 && nameByte(out[at-1]) {
				continue
			}
			if end < len(out) && (nameByte(out[end]) && out[end] != '.' ||
				out[end] == '.' && end+1 < len(out) && nameByte(out[end+1])) {
				continue
			}
			got = append(got, n)
			break
		}
	}
	return got
}

// nameByte is a byte that may be part of a file's name in running text.
func nameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.'
}
