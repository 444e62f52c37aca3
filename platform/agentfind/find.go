package agentfind

import (
	"io/fs"
	"path"
	"strings"
)

// Env is what Find needs to know of the user and the OS.
type Env struct {
	GOOS    string
	Home    string // the user's home: ~, %USERPROFILE%
	AppData string // Windows: %APPDATA%, where npm's global prefix is by default
	// NpmPrefix is npm's global prefix when the user set one
	// ($NPM_CONFIG_PREFIX, or prefix= in ~/.npmrc); "" for npm's default.
	NpmPrefix string
}

// FS is the file access Find and Check need.
type FS interface {
	Stat(path string) (fs.FileInfo, error)
	// Head is the first n bytes of the file (fewer if it is shorter).
	Head(path string, n int) ([]byte, error)
}

// Candidate is one place an installer puts an agent CLI.
type Candidate struct {
	Path   string
	Source string // which installer puts it there, said in status
}

// Found is the program Find picked.
type Found struct {
	Candidate
	// Problem is non-nil when the file there is no program (Check).
	Problem error
}

// Candidates are the places to look for name, best first: the agent's own
// native installer, npm's global prefix, Homebrew.
func Candidates(env Env, name string) []Candidate {
	var out []Candidate
	add := func(source string, parts ...string) {
		if parts[0] == "" {
			return
		}
		out = append(out, Candidate{Path: join(env.GOOS, parts...), Source: source})
	}
	if env.GOOS == "windows" {
		native := "the native installer"
		if name == "claude" {
			native = "Claude Code's native installer"
		}
		add(native, env.Home, ".local", "bin", name+".exe")
		// npm puts a global bin in the prefix itself on Windows.
		add("npm's global prefix", env.NpmPrefix, name+".cmd")
		add("npm's global prefix", env.AppData, "npm", name+".cmd")
		add("Scoop", env.Home, "scoop", "shims", name+".exe")
		return dedupe(out)
	}
	if name == "claude" {
		add("Claude Code's native installer", env.Home, ".local", "bin", "claude")
		add("Claude Code's local install (claude migrate-installer)", env.Home, ".claude", "local", "claude")
	} else {
		add("the native installer", env.Home, ".local", "bin", name)
	}
	add("npm's global prefix", env.NpmPrefix, "bin", name)
	add("npm's global prefix (~/.npm-global)", env.Home, ".npm-global", "bin", name)
	if env.GOOS == "darwin" {
		add("Homebrew", "/opt/homebrew/bin", name)
		add("Homebrew (Intel) or npm's default prefix", "/usr/local/bin", name)
	} else {
		add("Homebrew", "/home/linuxbrew/.linuxbrew/bin", name)
		add("Homebrew", env.Home, ".linuxbrew", "bin", name)
		add("npm's default prefix", "/usr/local/bin", name)
	}
	return dedupe(out)
}

// Find is the first candidate that is a file. ok is false when there is
// none; a placeholder is found, with its Problem, so status can say so.
func Find(fsys FS, env Env, name string) (f Found, ok bool) {
	for _, c := range Candidates(env, name) {
		fi, err := fsys.Stat(c.Path)
		if err != nil || fi.IsDir() {
			continue
		}
		return Found{Candidate: c, Problem: Check(fsys, env.GOOS, c.Path, name)}, true
	}
	return Found{}, false
}

// Dir is the folder of a path Find returned.
func Dir(goos, p string) string {
	if goos == "windows" {
		if i := strings.LastIndexAny(p, `\/`); i >= 0 {
			return p[:i]
		}
		return p
	}
	return path.Dir(p)
}

func join(goos string, parts ...string) string {
	if goos != "windows" {
		return path.Join(parts...)
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 && !strings.HasSuffix(b.String(), `\`) {
			b.WriteByte('\\')
		}
		b.WriteString(strings.TrimLeft(p, `\`))
	}
	return b.String()
}

func dedupe(cs []Candidate) []Candidate {
	seen := map[string]bool{}
	out := cs[:0]
	for _, c := range cs {
		if !seen[c.Path] {
			seen[c.Path] = true
			out = append(out, c)
		}
	}
	return out
}

// npmrcPrefix is the prefix= setting of an .npmrc ("" when it has none),
// with a leading ~ made the home.
func npmrcPrefix(npmrc, home string) string {
	for _, line := range strings.Split(npmrc, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok || strings.TrimSpace(k) != "prefix" {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		if rest, ok := strings.CutPrefix(v, "~"); ok {
			v = home + rest
		}
		return v
	}
	return ""
}
