package config

import (
	"fmt"
	"strings"

	"github.com/buildstation/buildstation/supervisor/agent"
)

// DefaultNudge is typed into a session that has gone quiet. Most stalls are
// an agent that finished and forgot the last step, so it asks for exactly
// that, in the words the agent can act on: {idle} is how long it really was
// silent, {complete} the tool or command this agent actually has.
const DefaultNudge = "Note: I noticed you've been silent for {idle}. If you've finished the task — run git commit and {complete}. If you're still working, just continue."

// Platform is what the machine decides about the defaults. platform/
// finds it (platform/osdefaults) and the wiring hands it to Load, so
// reading config.toml looks at the file alone and never at the OS.
type Platform struct {
	// Backend is the backend a project gets when config.toml names none:
	// "tmux" on macOS when tmux is on PATH, as docs/contract.md says;
	// "" is "pty".
	Backend string
	// Windows: the first-run file's example paths are Windows paths.
	Windows bool
}

// backend is p's default backend.
func (p Platform) backend() string {
	if p.Backend == "" {
		return "pty"
	}
	return p.Backend
}

// The defaults the code needs without a config.toml, read from their
// declaration in Keys.
var (
	// DefaultStopGrace is stop_grace when config.toml says nothing.
	DefaultStopGrace = declaredAs("", "stop_grace", (*checker).duration)
	// DefaultTranscriptMax is transcript_max when config.toml says nothing.
	DefaultTranscriptMax = declaredAs("", "transcript_max", (*checker).size)
	// DefaultHookTimeout bounds a hook when [hooks] sets no timeout.
	DefaultHookTimeout = declaredAs("hooks", "timeout", (*checker).duration)
)

// builtinAgents are present whether or not config.toml mentions them, so a
// fresh install can run the common CLIs with no [agents] table at all.
func builtinAgents() map[string]Agent {
	m := map[string]Agent{}
	for _, name := range agent.ProfileNames(true) {
		m[name] = Agent{Name: name, Command: []string{name}, Profile: name}
	}
	return m
}

// DefaultText is written as config.toml on first run: every key of Keys
// with its default (or an example) and what it does, all commented out, so
// the file documents itself and sets nothing. A default changed in code
// then reaches every user who did not set the key. It parses to exactly the
// defaults, with no projects.
func DefaultText() string {
	var b strings.Builder
	for i, t := range Tables {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, line := range strings.Split(fillNames(t.Intro), "\n") {
			b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
		}
		switch {
		case t.Header == "":
			b.WriteString("\n")
		case t.Open:
			b.WriteString(t.Header + "\n")
		default:
			b.WriteString("# " + t.Header + "\n")
		}
		for _, k := range Keys {
			if k.Table == t.Name {
				writeKey(&b, k)
			}
		}
	}
	return b.String()
}

// windowsExamples turns the first-run file's Unix example paths into
// Windows ones (TOML literal strings: backslashes as they are).
var windowsExamples = strings.NewReplacer(
	`"/src/web"`, `'C:\src\web'`,
	`"/home/me/bin/tell-slack"`, `'C:\Users\me\bin\tell-slack.cmd'`,
)

// defaultTextFor is DefaultText with p's own example paths.
func defaultTextFor(p Platform) string {
	if p.Windows {
		return windowsExamples.Replace(DefaultText())
	}
	return DefaultText()
}

// commentColumn is where a key's comment starts in the first-run file.
const commentColumn = 36

// writeKey writes k commented out, with what it does beside it, or below
// it when the line is too long for that.
func writeKey(b *strings.Builder, k Key) {
	value := k.Default
	if value == "" {
		value = k.Example
	}
	line := "# " + k.Name + " = " + value
	about := strings.Split(k.about(), "\n")
	if len(line) >= commentColumn-1 && len(line)+len(about[0]) < 100 && len(about) == 1 {
		b.WriteString(line + " # " + about[0] + "\n")
		return
	}
	if len(line) >= commentColumn-1 {
		b.WriteString(line + "\n")
		for _, l := range wrap(strings.Join(about, " "), 76) {
			b.WriteString("# " + l + "\n")
		}
		return
	}
	for i, l := range about {
		if i > 0 {
			line = "#"
		}
		fmt.Fprintf(b, "%-*s # %s\n", commentColumn-1, line, l)
	}
}

// wrap breaks s into lines of at most width bytes, at spaces.
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
