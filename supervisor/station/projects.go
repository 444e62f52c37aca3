package station

import (
	"context"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// Projects is the projects' area: list, add, remove, pause and resume
// them, and edit their settings and setup.
type Projects struct{ st *Station }

// Projects lists projects with their effective settings.
func (ps *Projects) Projects(ctx context.Context) ([]supervisor.ProjectInfo, error) {
	return ps.projects(ctx, "")
}

// Project is one project's line of Projects: `project show NAME`.
func (ps *Projects) Project(ctx context.Context, name string) (supervisor.ProjectInfo, error) {
	infos, err := ps.projects(ctx, name)
	if err != nil {
		return supervisor.ProjectInfo{}, err
	}
	if len(infos) == 0 {
		return supervisor.ProjectInfo{}, supervisor.NotFoundf("no project %q here; buildstation project ls lists them", name)
	}
	return infos[0], nil
}

// projects are the lines of Projects, of project only unless it is "".
func (ps *Projects) projects(ctx context.Context, only string) ([]supervisor.ProjectInfo, error) {
	paused, err := ps.st.board.Paused(ctx)
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	todo, err := ps.st.board.Tasks(ctx, supervisor.TaskFilter{State: supervisor.TaskTodo})
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	cfg := ps.st.Config()
	out := make([]supervisor.ProjectInfo, 0, len(cfg.Projects))
	for _, p := range cfg.Projects {
		if only != "" && p.Name != only {
			continue
		}
		out = append(out, ps.info(p, paused, todo))
	}
	return out, nil
}

// PauseProject stops a project's queue; running sessions go on.
func (ps *Projects) PauseProject(ctx context.Context, name, reason string) error {
	if _, ok := ps.st.Config().Project(name); !ok {
		return supervisor.NotFoundf("unknown project %q; use one of %s", name, ps.st.Tasks.projectNames())
	}
	if reason == "" {
		reason = "paused by a person"
	}
	if err := ps.st.board.SetPaused(ctx, name, true, reason); err != nil {
		return fmt.Errorf("pause project %s: %w", name, err)
	}
	ps.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	return nil
}

// ResumeProject restarts a project's queue.
func (ps *Projects) ResumeProject(ctx context.Context, name string) error {
	if _, ok := ps.st.Config().Project(name); !ok {
		return supervisor.NotFoundf("unknown project %q; use one of %s", name, ps.st.Tasks.projectNames())
	}
	if err := ps.st.board.SetPaused(ctx, name, false, ""); err != nil {
		return fmt.Errorf("resume project %s: %w", name, err)
	}
	ps.st.sched.breaker.reset(name) // a person looked: the breaker counts afresh
	ps.st.costs.liftBudget(ctx, today(time.Now()), name)
	ps.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	ps.st.poke()
	return nil
}
