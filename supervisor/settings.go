package supervisor

import (
	"context"
	"fmt"
	"os"

	"github.com/buildstation/buildstation/supervisor/config"
)

// SetProjectSettings changes a project's per-project overrides: written back
// to config.toml (comments and the rest kept), validated first, and applied
// at once — new sessions and the windows of running ones — with no restart.
// An empty value removes the override, so the default applies again.
func (st *Station) SetProjectSettings(ctx context.Context, name string, set map[string]string) (ProjectInfo, error) {
	if len(set) == 0 {
		return ProjectInfo{}, Invalidf("no settings given; pass at least one of %v", config.EditableKeys)
	}
	st.cfgMu.Lock()
	defer st.cfgMu.Unlock()
	cur := st.Config()
	if _, ok := cur.Project(name); !ok {
		return ProjectInfo{}, NotFoundf("unknown project %q; use one of %s", name, st.projectNames())
	}
	data, err := os.ReadFile(cur.Path)
	if err != nil {
		return ProjectInfo{}, fmt.Errorf("read %s: %w", cur.Path, err)
	}
	out, cfg, err := config.EditProject(cur.Path, data, name, set)
	if err != nil {
		// A refused edit is the person's input, said in config's words
		// (file, line, key); nothing was written.
		return ProjectInfo{}, Invalidf("%s", err.Error())
	}
	if err := config.WriteFile(cur.Path, out); err != nil {
		return ProjectInfo{}, err
	}
	st.mu.Lock()
	st.cfg = cfg
	st.mu.Unlock()
	p, _ := cfg.Project(name)
	for _, s := range st.liveSessions() {
		if s.spec.Project == name {
			_ = s.send(ctx, command{kind: cmdSettings, settings: p.Settings})
		}
	}
	st.log.Info("project settings changed", "project", name, "set", set)
	st.bus.Publish(Event{Kind: EventProject, Project: name})
	st.poke()
	infos, err := st.Projects(ctx)
	if err != nil {
		return ProjectInfo{}, err
	}
	for _, pi := range infos {
		if pi.Name == name {
			return pi, nil
		}
	}
	return ProjectInfo{}, NotFoundf("project %q vanished", name)
}
