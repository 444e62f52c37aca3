package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/platform/github"
	"github.com/buildstation/buildstation/platform/gitwt"
	"github.com/buildstation/buildstation/platform/keychain"
	"github.com/buildstation/buildstation/platform/linear"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/outbox"
	"github.com/buildstation/buildstation/supervisor/source"
	"github.com/buildstation/buildstation/supervisor/station"
)

// trackers makes one client per [[sources]] entry. A source that cannot
// get a token still gets a tracker, one that fails with the reason, so
// status says what to do and the station runs on.
func trackers(cfg *config.Config) []source.Tracker {
	var out []source.Tracker
	for _, src := range cfg.Sources {
		tok, err := keychain.Token(src)
		if err != nil {
			out = append(out, source.Broken{Err: err})
			continue
		}
		switch src.Kind {
		case config.SourceGitHub:
			c, err := github.New(src, tok, nil)
			if err != nil {
				out = append(out, source.Broken{Err: err})
				continue
			}
			out = append(out, c)
		case config.SourceLinear:
			c, err := linear.New(src, tok, nil)
			if err != nil {
				out = append(out, source.Broken{Err: err})
				continue
			}
			out = append(out, c)
		}
	}
	return out
}

// sources makes the syncer of cfg's [[sources]] on the outbox in the
// home, or nil when there are none. Its prober is handed to the station
// as a layer of evidence; the syncer itself runs once the station exists
// (startSources).
func (r *run) sources(o Options, cfg *config.Config, board supervisor.Board) (*source.Syncer, error) {
	if len(cfg.Sources) == 0 {
		return nil, nil
	}
	box, err := outbox.Open(filepath.Join(o.Home, outbox.File))
	if err != nil {
		return nil, err
	}
	r.defer_(func() { box.Close() })
	return source.New(source.Options{
		Sources: cfg.Sources, Trackers: trackers(cfg), Board: board, Ledger: box,
		Interval: o.SourceInterval, Log: o.Log.With("part", "sources"),
	}), nil
}

// syncStation is what the syncer asks of the station: adding, requeueing
// and reworking tasks (source.Requeuer, source.Reworker), typing into
// their sessions (source.Teller) and the station's events.
type syncStation struct {
	*station.Tasks
	*station.Sessions
}

// startSources runs the syncer on st until ctx ends; the returned func
// stops it and waits, before the board closes.
func startSources(ctx context.Context, sy *source.Syncer, st *station.Station, ws supervisor.Workspaces, cfg *config.Config) func() {
	sy.SetStation(syncStation{st.Tasks, st.Sessions})
	sy.SetWorkspace(sourceContext(st, ws, cfg), publisher(st, ws))
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sy.Serve(ctx)
	}()
	return func() { cancel(); <-done }
}

// sourceContext is what write-backs name: this station, the task's
// branch, the gate's verdict on its head.
func sourceContext(st *station.Station, ws supervisor.Workspaces, cfg *config.Config) source.Context {
	branch := gitwt.Branch
	if m, ok := ws.(*gitwt.Manager); ok {
		branch = m.Branch
	}
	return source.Context{
		Station: cfg.StationName(),
		Branch:  branch,
		Gate: func(t supervisor.Task) string {
			p, ok := st.Config().Project(t.Project)
			if !ok || ws == nil || p.Gate == "" {
				return ""
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			g, ran, err := ws.HeadGate(ctx, p.Repo, t.ID, false)
			switch {
			case err != nil || !ran:
				return "`" + p.Gate + "` not run on the head"
			case g.Passed:
				return fmt.Sprintf("`%s` passed on %s", p.Gate, supervisor.ShortSHA(g.SHA))
			}
			return fmt.Sprintf("`%s` failed on %s", p.Gate, supervisor.ShortSHA(g.SHA))
		},
	}
}

// publisher pushes a task's branches to its project's remote before its
// pull request is opened; a project without a remote cannot have one.
func publisher(st *station.Station, ws supervisor.Workspaces) func(ctx context.Context, project, taskID string) error {
	return func(ctx context.Context, project, taskID string) error {
		p, ok := st.Config().Project(project)
		if !ok || ws == nil {
			return fmt.Errorf("project %s has no worktrees to push", project)
		}
		pub, err := ws.Publish(ctx, p.Repo, taskID)
		if err != nil {
			return err
		}
		if pub.Remote == "" {
			return fmt.Errorf("project %s has no remote: set remote = \"origin\" in its [[projects]] table so its branches can be pushed for a pull request", project)
		}
		return nil
	}
}

// pullRequests opens a done task's pull request on a person's `task pr`
// (station.Options.OpenPullRequest): its branch pushed to the project's
// remote, then the pull request opened on src with the agent's summary,
// or the one the branch has already found (a replayed write looks first).
func pullRequests(ws supervisor.Workspaces, station string) func(context.Context, config.Source, config.Project, supervisor.Task) (string, error) {
	return func(ctx context.Context, src config.Source, p config.Project, t supervisor.Task) (string, error) {
		if ws == nil {
			return "", supervisor.Conflictf("project %s has no worktrees to push", p.Name)
		}
		pub, err := ws.Publish(ctx, p.Repo, t.ID)
		if err != nil {
			return "", supervisor.Conflictf("push the branch of %s: %v", t.ID, err)
		}
		if pub.Remote == "" {
			return "", supervisor.Conflictf("project %s has no remote: set remote = \"origin\" in its [[projects]] table so its branches can be pushed for a pull request", p.Name)
		}
		fix := source.Fix(src, "buildstation source login github")
		tok, err := keychain.Token(src)
		if err != nil {
			return "", supervisor.Conflictf("%s", source.Problem(src.Name(), err, fix))
		}
		c, err := github.New(src, tok, nil)
		if err != nil {
			return "", supervisor.Conflictf("%s: %v", src.Name(), err)
		}
		branch := gitwt.Branch
		if m, ok := ws.(*gitwt.Manager); ok {
			branch = m.Branch
		}
		var body strings.Builder
		if t.Summary == "" {
			body.WriteString("The agent gave no summary.\n\n")
		} else {
			// The agent's words, neutralized: they may not close issues,
			// mention people or load images.
			fmt.Fprintf(&body, "The agent's summary:\n\n%s\n\n", source.Neutral(t.Summary))
		}
		fmt.Fprintf(&body, "- task: %s on station %s\n", t.ID, station)
		if t.External != nil && t.External.Kind == config.SourceGitHub && source.Owns(src, t.External) {
			if n, ok := source.GitHubNumber(t.External.ID); ok {
				fmt.Fprintf(&body, "\nCloses #%d\n", n)
			}
		}
		sent, err := c.Send(ctx, source.Write{Key: t.ID + "/pr", Kind: source.WritePR, Source: src.Name(), TaskID: t.ID, Tried: true,
			PR: &source.PullRequest{Project: p.Name, Head: branch(t.ID), Title: textsafe.Line(t.Title), Body: body.String()}})
		if err != nil {
			return "", supervisor.Conflictf("%s", source.Problem(src.Name(), err, fix))
		}
		return sent.URL, nil
	}
}
