package station

import (
	"context"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// ReloadConfig reads config.toml again after a person edited it: a valid
// file is applied at once (new projects start taking tasks, live sessions
// get their project's new windows); an invalid one changes nothing, and the
// station keeps saying why (log and status) until the file is fixed.
// Keys that shape the station itself (board, station, lease) take effect
// at the next start, which the log says.
func (ct *Control) ReloadConfig(ctx context.Context) error {
	ct.st.cfgMu.Lock()
	defer ct.st.cfgMu.Unlock()
	cur := ct.st.Config()
	data, err := ct.st.files.ReadConfig(cur.Path)
	var cfg *config.Config
	if err == nil {
		cfg, err = config.Parse(cur.Path, data, cur.Platform)
	}
	if err != nil {
		msg := fmt.Sprintf("%s: the station keeps the config it had until the file is fixed", err)
		ct.st.mu.Lock()
		changed := ct.st.cfgErr != msg
		ct.st.cfgErr = msg
		ct.st.mu.Unlock()
		if changed {
			ct.st.log.Error("config.toml changed but cannot be used; keeping the config the station had", "err", err)
		}
		return err
	}
	if cfg.Board != cur.Board || cfg.Station != cur.Station || cfg.Lease != cur.Lease {
		ct.st.log.Warn("config.toml: board, station and lease take effect when the station restarts; restart the station to apply them")
		cfg.Board, cfg.Station, cfg.Lease = cur.Board, cur.Station, cur.Lease
	}
	ct.st.mu.Lock()
	ct.st.cfg, ct.st.cfgErr = cfg, ""
	ct.st.mu.Unlock()
	for _, s := range ct.st.liveSessions() {
		if p, ok := cfg.Project(s.spec.Project); ok {
			_ = s.send(ctx, command{kind: cmdSettings, settings: ct.st.Projects.effective(p)})
		}
	}
	ct.st.log.Info("config.toml reloaded", "projects", len(cfg.Projects))
	for _, p := range cfg.Projects {
		ct.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: p.Name})
	}
	ct.st.poke()
	return nil
}

// configWarning is the status line for a config.toml the station could
// not apply, or "".
func (ct *Control) configWarning() string {
	ct.st.mu.Lock()
	defer ct.st.mu.Unlock()
	return ct.st.cfgErr
}
