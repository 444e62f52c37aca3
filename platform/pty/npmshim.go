package pty

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// npm installs an agent CLI on Windows as a batch shim (claude.cmd,
// codex.cmd, gemini.cmd) that cmd-shim generated. Run through cmd.exe, the
// shim costs what cmd.exe costs: no line break can reach the agent in an
// argument, %VAR% in one must be escaped, Ctrl+C asks "Terminate batch
// job (Y/N)?" instead of reaching the agent, and the agent's own CPU is
// cmd.exe's. So Spawn reads the shim and starts what it would start:
//
//	"%dp0%\node_modules\@anthropic-ai\claude-code\bin\claude.exe"   %*
//
// (a native program: Claude Code's npm package puts its native binary at
// bin\claude.exe), or, for a package whose bin is a node script,
//
//	IF EXIST "%dp0%\node.exe" ( SET "_prog=%dp0%\node.exe" ) ELSE ( SET "_prog=node" … )
//	… "%_prog%"  "%dp0%\node_modules\@openai\codex\bin\codex.js" %*
//
// node.exe with the script. Older shims and pnpm's say %~dp0 instead of
// %dp0%. Everything here is pure (file access is passed in), so it is
// tested on every OS with a fake npm folder.

// quotedRE finds the double-quoted words of a batch line.
var quotedRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"([^"]*)"`) })

// npmShim is what resolveShim found.
type npmShim struct {
	// Argv is the program and the arguments the shim puts before %*.
	Argv []string
}

// resolveShim reads the batch file at path and returns what it runs. ok is
// false for a batch file that is not an npm-style shim, or whose program
// is missing (a Claude Code install whose postinstall never ran): those
// still run through cmd.exe. findNode looks node up on the session's PATH.
func resolveShim(path string, read func(string) ([]byte, error), isFile func(string) bool, findNode func() (string, error)) (npmShim, bool, error) {
	data, err := read(path)
	if err != nil {
		return npmShim{}, false, fmt.Errorf("read %s: %w", path, err)
	}
	dir := winDir(path)
	var line string
	for _, l := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		if strings.Contains(l, "%*") {
			line = l // the last line that passes the arguments on
		}
	}
	if line == "" {
		return npmShim{}, false, nil
	}
	line = line[:strings.LastIndex(line, "%*")]
	// The target is the last quoted word that names a file beside the
	// shim (%dp0% or %~dp0): cmd-shim puts the program (node) before it.
	var target string
	for _, m := range quotedRE().FindAllStringSubmatch(line, -1) {
		if w := m[1]; strings.Contains(w, "%dp0%") || strings.Contains(w, "%~dp0") {
			target = w
		}
	}
	if target == "" {
		return npmShim{}, false, nil
	}
	target = expandDP0(target, dir)
	if !isFile(target) {
		return npmShim{}, false, nil
	}
	switch strings.ToLower(winExt(target)) {
	case ".exe", ".com":
		return npmShim{Argv: []string{target}}, true, nil
	case ".js", ".cjs", ".mjs", "":
	default:
		return npmShim{}, false, nil
	}
	// A script: cmd-shim runs it with node, the one beside the shim first.
	if !strings.Contains(line, "_prog") && !strings.Contains(strings.ToLower(line), "node") {
		return npmShim{}, false, nil
	}
	node := winJoin(dir, "node.exe")
	if !isFile(node) {
		if node, err = findNode(); err != nil {
			return npmShim{}, false, fmt.Errorf("%s runs a node script, and node is not on PATH: %w", path, err)
		}
		if e := strings.ToLower(winExt(node)); e != ".exe" && e != ".com" {
			return npmShim{}, false, nil // node is itself a shim (nvm, volta): let cmd.exe run it
		}
	}
	return npmShim{Argv: []string{node, target}}, true, nil
}

// expandDP0 replaces the shim's own folder (%dp0% or %~dp0, which end in a
// backslash) in p and cleans the result.
func expandDP0(p, dir string) string {
	p = strings.ReplaceAll(p, "%dp0%", dir+`\`)
	p = strings.ReplaceAll(p, "%~dp0", dir+`\`)
	return winClean(p)
}

// winDir is a Windows path's folder, without a trailing backslash.
func winDir(p string) string {
	i := strings.LastIndexAny(p, `\/`)
	if i < 0 {
		return "."
	}
	return p[:i]
}

// winClean folds repeated separators, "." and ".." in a Windows path,
// keeping its root (C:\ or \\server\share\).
func winClean(p string) string {
	p = strings.ReplaceAll(p, "/", `\`)
	root := ""
	switch {
	case strings.HasPrefix(p, `\\`):
		parts := strings.SplitN(p[2:], `\`, 3)
		if len(parts) >= 2 {
			root = `\\` + parts[0] + `\` + parts[1] + `\`
			p = ""
			if len(parts) == 3 {
				p = parts[2]
			}
		}
	case len(p) >= 2 && p[1] == ':':
		root, p = p[:2]+`\`, strings.TrimLeft(p[2:], `\`)
	}
	var out []string
	for _, e := range strings.Split(p, `\`) {
		switch e {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, e)
		}
	}
	return root + strings.Join(out, `\`)
}

// resolveCommand is what Spawn starts for path (found on PATH) and args:
// a batch file that is an npm shim is replaced by the program it runs, so
// no cmd.exe stands between the station and the agent.
func resolveCommand(path string, args []string, read func(string) ([]byte, error), isFile func(string) bool, findNode func() (string, error)) (string, []string, error) {
	if !isBatch(path) {
		return path, args, nil
	}
	shim, ok, err := resolveShim(path, read, isFile, findNode)
	if err != nil {
		return "", nil, err
	}
	if !ok {
		return path, args, nil
	}
	return shim.Argv[0], append(shim.Argv[1:len(shim.Argv):len(shim.Argv)], args...), nil
}
