package station

import (
	"context"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// SetProjectSettings changes a project's per-project overrides: written back
// to config.toml (comments and the rest kept), validated first, and applied
// at once — new sessions and the windows of running ones — with no restart.
// An empty value removes the override, so the default applies again.
func (ps *Projects) SetProjectSettings(ctx context.Context, name string, set map[string]string) (supervisor.ProjectInfo, error) {
	if len(set) == 0 {
		return supervisor.ProjectInfo{}, supervisor.Invalidf("no settings given; pass at least one of %v", config.ProjectKeys)
	}
	ps.st.cfgMu.Lock()
	defer ps.st.cfgMu.Unlock()
	cur := ps.st.Config()
	if _, ok := cur.Project(name); !ok {
		return supervisor.ProjectInfo{}, supervisor.NotFoundf("unknown project %q; use one of %s", name, ps.st.Tasks.projectNames())
	}
	data, err := ps.st.files.ReadConfig(cur.Path)
	if err != nil {
		return supervisor.ProjectInfo{}, fmt.Errorf("read %s: %w", cur.Path, err)
	}
	out, cfg, err := config.EditProject(cur.Path, data, name, set, cur.Platform)
	if err != nil {
		// A refused edit is the person's input, said in config's words
		// (file, line, key); nothing was written.
		return supervisor.ProjectInfo{}, supervisor.Invalidf("%s", err.Error())
	}
	if err := ps.st.files.WriteConfig(cur.Path, out); err != nil {
		return supervisor.ProjectInfo{}, err
	}
	ps.st.mu.Lock()
	ps.st.cfg = cfg
	ps.st.mu.Unlock()
	p, _ := cfg.Project(name)
	for _, s := range ps.st.liveSessions() {
		if s.spec.Project == name {
			_ = s.send(ctx, command{kind: cmdSettings, settings: ps.effective(p)})
		}
	}
	ps.st.log.Info("project settings changed", "project", name, "set", set)
	ps.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	ps.st.poke()
	infos, err := ps.Projects(ctx)
	if err != nil {
		return supervisor.ProjectInfo{}, err
	}
	for _, pi := range infos {
		if pi.Name == name {
			return pi, nil
		}
	}
	return supervisor.ProjectInfo{}, supervisor.NotFoundf("project %q vanished", name)
}

// effective is p's settings as this station applies them: config.toml's,
// each window lengthened to the shared board's floor for p.
func (ps *Projects) effective(p config.Project) config.Settings {
	set := p.Settings
	if m := ps.st.windows.Load(); m != nil {
		w := (*m)[p.Name]
		set.IdleWindow = max(set.IdleWindow, w.Idle)
		set.BlockWindow = max(set.BlockWindow, w.Block)
		set.ReviewIdleWindow = max(set.ReviewIdleWindow, w.ReviewIdle)
	}
	return set
}

// refreshWindows reads the shared board's windows; when a project's
// changed, its running sessions take the new effective windows at once,
// and trays hear of it. A board that does not answer keeps the last ones.
func (sh *Shared) refreshWindows(ctx context.Context) {
	wb, ok := sh.st.board.(supervisor.WindowBoard)
	if !ok {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, sh.st.host.writeTimeout())
	got, err := wb.ProjectWindows(rctx)
	cancel()
	if err != nil {
		if ctx.Err() == nil {
			sh.st.log.Warn("read the shared board's watchdog windows; keeping the last read", "err", err)
		}
		return
	}
	var old map[string]supervisor.BoardWindows
	if p := sh.st.windows.Swap(&got); p != nil {
		old = *p
	}
	for _, p := range sh.st.Config().Projects {
		if old[p.Name] == got[p.Name] {
			continue
		}
		set := sh.st.Projects.effective(p)
		sh.st.log.Info("the shared board's watchdog windows changed", "project", p.Name,
			"idle_window", set.IdleWindow, "block_window", set.BlockWindow, "review_idle_window", set.ReviewIdleWindow)
		for _, s := range sh.st.liveSessions() {
			if s.spec.Project == p.Name {
				_ = s.send(ctx, command{kind: cmdSettings, settings: set})
			}
		}
		sh.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: p.Name})
	}
}
