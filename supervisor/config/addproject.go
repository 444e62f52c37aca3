package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// NewProject is what `project add` and the dashboard's Add project write:
// a folder, its name, and the agent that works in it (a named agent, or an
// inline command; neither: the [defaults] agent).
type NewProject struct {
	Name    string
	Path    string
	Agent   string
	Command []string
	// Settings are the new table's other keys (any key `project set`
	// takes but path, agent, command and setup: gate, concurrency, the
	// windows …), written as their declared types; an empty value is left
	// out.
	Settings map[string]string
	// DryRun is the caller's: AddProject itself never writes.
	DryRun bool
	// Setup is written as the project's setup key when set.
	Setup string
	// Include is the caller's (.worktreeinclude, a file of the project,
	// not of config.toml).
	Include []string
}

// ProjectName is the name a project gets when none is given: its folder's
// base name, with what a name should not hold turned into dashes.
func ProjectName(path string) string {
	base := filepath.Base(filepath.Clean(path))
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' || r < 0x20 || r == 0x7f {
			return '-'
		}
		return r
	}, base)
	if name == "." || name == string(filepath.Separator) {
		return ""
	}
	return name
}

// AddProject appends a [[projects]] table for np to the file's text and
// returns the new text and its parsed config. The text is only appended to,
// so the rest of the file — comments, order, other projects — stays as it
// was; the result is validated as a whole before it is returned, so nothing
// is written when it is refused. A missing folder, a name already taken and
// an agent the file does not know are each refused in one sentence.
func AddProject(path string, data []byte, np NewProject, plat Platform) ([]byte, *Config, error) {
	cfg, err := Parse(path, data, plat)
	if err != nil {
		return nil, nil, err
	}
	if np.Path == "" {
		return nil, nil, errors.New("no folder given; pass the project's folder")
	}
	folder := np.Path
	if !filepath.IsAbs(folder) {
		return nil, nil, fmt.Errorf("%q is not an absolute path; pass the folder's full path", folder)
	}
	fi, err := os.Stat(folder)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("%s does not exist; create the folder first or fix the path", folder)
	case err != nil:
		return nil, nil, fmt.Errorf("%s cannot be read (%v); check the path and its permissions", folder, err)
	case !fi.IsDir():
		return nil, nil, fmt.Errorf("%s is not a folder; pass the project's folder", folder)
	}
	if np.Name == "" {
		np.Name = ProjectName(folder)
	}
	if np.Name == "" {
		return nil, nil, fmt.Errorf("cannot name a project after %s; pass --name", folder)
	}
	if _, ok := cfg.Project(np.Name); ok {
		return nil, nil, fmt.Errorf("a project named %q already exists; pass --name with another name, or remove it first with: buildstation project rm %s", np.Name, np.Name)
	}
	for _, p := range cfg.Projects {
		if p.Path == filepath.Clean(folder) {
			return nil, nil, fmt.Errorf("%s is already the folder of project %q; one project per folder", folder, p.Name)
		}
	}
	if np.Agent != "" && len(np.Command) > 0 {
		return nil, nil, errors.New("pass an agent or a command, not both")
	}
	if np.Agent != "" {
		if _, ok := cfg.Agents[np.Agent]; !ok {
			return nil, nil, fmt.Errorf("no agent named %q; use one of %s, or pass --command with the program to run", np.Agent, strings.Join(sortedKeys(cfg.Agents), ", "))
		}
	}
	for _, k := range sortedKeys(np.Settings) {
		if !slices.Contains(addKeys, k) {
			return nil, nil, fmt.Errorf("%q cannot be set here; use one of %s", k, strings.Join(addKeys, ", "))
		}
	}
	table, err := projectTable(data, np)
	if err != nil {
		return nil, nil, err
	}
	out := append(slices.Clone(data), []byte(table)...)
	ncfg, err := Parse(path, out, plat)
	if err != nil {
		return nil, nil, err
	}
	return out, ncfg, nil
}

// addKeys are the keys a new project's Settings may hold: every key
// `project set` takes but those NewProject has fields for.
var addKeys = slices.DeleteFunc(slices.Clone(ProjectKeys), func(k string) bool {
	return k == "path" || k == "agent" || k == "command" || k == "setup"
})

// projectTable is np as a [[projects]] table, set apart from what the file
// already holds by a blank line.
func projectTable(data []byte, np NewProject) (string, error) {
	var b strings.Builder
	switch {
	case len(data) == 0:
	case !strings.HasSuffix(string(data), "\n"):
		b.WriteString("\n\n")
	case !strings.HasSuffix(string(data), "\n\n"):
		b.WriteString("\n")
	}
	b.WriteString("[[projects]]\n")
	b.WriteString("name = " + tomlString(np.Name) + "\n")
	b.WriteString("path = " + tomlString(np.Path) + "\n")
	switch {
	case len(np.Command) > 0:
		q := make([]string, len(np.Command))
		for i, a := range np.Command {
			q[i] = tomlString(a)
		}
		b.WriteString("command = [" + strings.Join(q, ", ") + "]\n")
	case np.Agent != "":
		b.WriteString("agent = " + tomlString(np.Agent) + "\n")
	}
	if s := strings.TrimSpace(np.Setup); s != "" {
		b.WriteString("setup = " + tomlString(s) + "\n")
	}
	for _, k := range sortedKeys(np.Settings) {
		if v := strings.TrimSpace(np.Settings[k]); v != "" {
			val, err := tomlValue(k, v)
			if err != nil {
				return "", err
			}
			b.WriteString(k + " = " + val + "\n")
		}
	}
	return b.String(), nil
}

// RemoveProject takes project name's [[projects]] table out of the file's
// text: its header and every line up to the next table, less the comment
// lines just above that next table (they belong to it). The rest of the
// file stays as it was, and the result is validated before it is returned.
func RemoveProject(path string, data []byte, name string, plat Platform) ([]byte, *Config, error) {
	cfg, err := Parse(path, data, plat)
	if err != nil {
		return nil, nil, err
	}
	idx := slices.IndexFunc(cfg.Projects, func(p Project) bool { return p.Name == name })
	if idx < 0 {
		return nil, nil, fmt.Errorf("no project named %q; see the names with: buildstation project ls", name)
	}
	text := string(data)
	header, ok := locate(text)[keyPath{"projects"}.at(idx).String()]
	if !ok {
		return nil, nil, fmt.Errorf("%s: project %q is not written as a [[projects]] table; remove it by hand", path, name)
	}
	lines := strings.SplitAfter(text, "\n")
	end := header // lines[header-1:end] go
	for end < len(lines) && !isTableHeader(lines[end]) {
		end++
	}
	if end < len(lines) {
		// Keep the comment block (and the blank line before it) that
		// introduces the next table.
		for end > header && isCommentOrBlank(lines[end-1]) {
			end--
		}
	}
	start := header - 1
	// A blank line before the header separated it from what came before:
	// drop one, so none pile up.
	if start > 0 && strings.TrimSpace(lines[start-1]) == "" {
		start--
	}
	out := []byte(strings.Join(slices.Delete(lines, start, end), ""))
	ncfg, err := Parse(path, out, plat)
	if err != nil {
		return nil, nil, err
	}
	return out, ncfg, nil
}

func isTableHeader(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "[")
}

func isCommentOrBlank(line string) bool {
	s := strings.TrimSpace(line)
	return s == "" || strings.HasPrefix(s, "#")
}
