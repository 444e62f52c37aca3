package station

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// AddProject adds a project to config.toml (appended, the rest of the file
// kept, validated as a whole first) and runs it at once, with no restart.
// It refuses, in one sentence each, a missing folder, a name already taken,
// an agent config.toml does not know and an agent program this machine
// does not have; it answers the one-time steps the agent still needs in
// that folder (Claude Code's folder trust), which a person must take.
// np.DryRun does every check and answers the project as it would run,
// writing nothing.
func (ps *Projects) AddProject(ctx context.Context, np supervisor.NewProject) (supervisor.AddedProject, error) {
	ps.st.cfgMu.Lock()
	defer ps.st.cfgMu.Unlock()
	cur := ps.st.Config()
	data, err := ps.st.files.ReadConfig(cur.Path)
	if err != nil {
		return supervisor.AddedProject{}, fmt.Errorf("read %s: %w", cur.Path, err)
	}
	out, cfg, err := config.AddProject(cur.Path, data, config.NewProject(np), cur.Platform)
	if err != nil {
		return supervisor.AddedProject{}, supervisor.Invalidf("%s", err.Error())
	}
	p := cfg.Projects[len(cfg.Projects)-1]
	if ps.st.opt.Setup != nil {
		// Another user's folder, or one git refuses for its owner:
		// what they plant there would run as this user.
		if err := ps.st.opt.Setup.CheckFolder(ctx, p.Path); err != nil {
			return supervisor.AddedProject{}, supervisor.Invalidf("%s", err.Error())
		}
	}
	a, err := cfg.AgentFor(p)
	if err != nil || len(a.Command) == 0 {
		return supervisor.AddedProject{}, supervisor.Invalidf("project %s has no agent to run; pass --agent or --command", p.Name)
	}
	var steps []string
	if f := ps.st.opt.Agents; f != nil {
		if _, err := f.Find(a.Command[0]); err != nil {
			return supervisor.AddedProject{}, supervisor.Invalidf("%s; install it (or add its folder to the station's PATH), or pass --command with the program to run", err.Error())
		}
		steps = f.Steps(a.Profile, p.Path)
	}
	var sug *supervisor.SetupSuggestion
	if ps.st.opt.Setup != nil {
		if s := ps.st.opt.Setup.Suggest(ctx, p.Path); s.Setup != "" || len(s.Include) > 0 || s.Gate != "" {
			sug = &s
		}
	}
	if np.DryRun {
		return supervisor.AddedProject{Project: ps.info(p, nil, nil), Steps: steps, Suggested: sug}, nil
	}
	if len(np.Include) > 0 {
		if ps.st.opt.Setup == nil {
			return supervisor.AddedProject{}, supervisor.Invalidf("this station cannot write a .worktreeinclude; write it by hand in %s", p.Path)
		}
		if err := ps.st.opt.Setup.WriteInclude(p.Path, np.Include); err != nil {
			return supervisor.AddedProject{}, supervisor.Invalidf("%s", err.Error())
		}
	}
	if err := ps.st.files.WriteConfig(cur.Path, out); err != nil {
		return supervisor.AddedProject{}, err
	}
	ps.st.mu.Lock()
	ps.st.cfg = cfg
	ps.st.mu.Unlock()
	ps.st.log.Info("project added", "project", p.Name, "path", p.Path, "agent", a.Command[0], "steps", len(steps))
	ps.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: p.Name})
	ps.st.poke()
	info, err := ps.Project(ctx, p.Name)
	return supervisor.AddedProject{Project: info, Steps: steps, Suggested: sug}, err
}

// RemoveProject takes a project out of config.toml (its table alone; the
// rest of the file kept). A project with a session running is refused:
// end or wait for its tasks first. Its tasks stay on the board, and run
// again if a project of that name comes back.
func (ps *Projects) RemoveProject(ctx context.Context, name string) error {
	ps.st.cfgMu.Lock()
	defer ps.st.cfgMu.Unlock()
	cur := ps.st.Config()
	if _, ok := cur.Project(name); !ok {
		return supervisor.NotFoundf("no project named %q; use one of %s", name, ps.st.Tasks.projectNames())
	}
	for _, s := range ps.st.liveSessions() {
		if s.spec.Project == name {
			return supervisor.Conflictf("project %s has a session running (%s); cancel its task or wait for it, then remove the project", name, s.spec.ID)
		}
	}
	data, err := ps.st.files.ReadConfig(cur.Path)
	if err != nil {
		return fmt.Errorf("read %s: %w", cur.Path, err)
	}
	out, cfg, err := config.RemoveProject(cur.Path, data, name, cur.Platform)
	if err != nil {
		return supervisor.Invalidf("%s", err.Error())
	}
	if err := ps.st.files.WriteConfig(cur.Path, out); err != nil {
		return err
	}
	ps.st.mu.Lock()
	ps.st.cfg = cfg
	ps.st.mu.Unlock()
	ps.st.log.Info("project removed", "project", name)
	ps.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	ps.st.poke()
	return nil
}

// info is project p's line of Projects, given the paused projects and the
// queued tasks.
func (ps *Projects) info(p config.Project, paused map[string]string, todo []supervisor.Task) supervisor.ProjectInfo {
	agent := p.Agent
	if len(p.Command) > 0 {
		agent = strings.Join(p.Command, " ")
	}
	reason, isPaused := paused[p.Name]
	set := ps.effective(p)
	info := supervisor.ProjectInfo{Name: p.Name, Path: p.Path, Agent: agent,
		IdleWindow: set.IdleWindow.String(), BlockWindow: set.BlockWindow.String(),
		ReviewIdleWindow: set.ReviewIdleWindow.String(), Concurrency: p.Concurrency,
		Review: p.Review, Gate: p.Gate, Paused: isPaused, PauseReason: reason, Running: ps.st.reg.runningIn(p.Name),
		Settings: ps.st.Config().ProjectSettings(p)}
	for _, t := range todo {
		if t.Project == p.Name {
			info.Queued++
		}
	}
	return info
}

// ProjectSetup is what Edit project shows of project name's folder: its
// .worktreeinclude, what its files suggest (setup, include, gate), and
// the one-time steps its agent still needs there. The dialog asks again
// every few seconds while it is open, so a step taken meanwhile goes.
// path, when not "", is a folder the person typed for the project (not
// saved yet): it is read in place of the project's, so the suggestions
// follow the typing; a folder the station refuses for a project (another
// user's) is refused here too.
func (ps *Projects) ProjectSetup(ctx context.Context, name, path string) (supervisor.ProjectSetup, error) {
	cfg := ps.st.Config()
	p, ok := cfg.Project(name)
	if !ok {
		return supervisor.ProjectSetup{}, supervisor.NotFoundf("no project named %q; use one of %s", name, ps.st.Tasks.projectNames())
	}
	if path = strings.TrimSpace(path); path != "" && path != p.Path {
		if !filepath.IsAbs(path) {
			return supervisor.ProjectSetup{}, supervisor.Invalidf("folder %q is not an absolute path", path)
		}
		p.Path = filepath.Clean(path)
		if adv := ps.st.opt.Setup; adv != nil {
			if err := adv.CheckFolder(ctx, p.Path); err != nil {
				return supervisor.ProjectSetup{}, supervisor.Invalidf("%s", err.Error())
			}
		}
	}
	var out supervisor.ProjectSetup
	if adv := ps.st.opt.Setup; adv != nil {
		inc, err := adv.Include(p.Path)
		if err != nil {
			return supervisor.ProjectSetup{}, err
		}
		out.Include, out.Suggested = inc, adv.Suggest(ctx, p.Path)
	}
	if f := ps.st.opt.Agents; f != nil {
		if a, err := cfg.AgentFor(p); err == nil {
			out.Steps = f.Steps(a.Profile, p.Path)
		}
	}
	return out, nil
}

// SetInclude replaces project name's .worktreeinclude with text (a
// person's edit from Edit project); blank text removes it. New worktrees
// and gate checkouts read it from then on.
func (ps *Projects) SetInclude(ctx context.Context, name, text string) error {
	p, ok := ps.st.Config().Project(name)
	if !ok {
		return supervisor.NotFoundf("no project named %q; use one of %s", name, ps.st.Tasks.projectNames())
	}
	if ps.st.opt.Setup == nil {
		return supervisor.Invalidf("this station cannot write a .worktreeinclude; edit it by hand in %s", p.Path)
	}
	if err := ps.st.opt.Setup.SetInclude(p.Path, text); err != nil {
		return supervisor.Invalidf("%s; check the folder's permissions", err.Error())
	}
	ps.st.log.Info("project .worktreeinclude changed", "project", name)
	ps.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	return nil
}
