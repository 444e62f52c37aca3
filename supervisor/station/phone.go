package station

import (
	"context"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Phone is how the phone's service stands and its settings.
type Phone struct{ st *Station }

// ReportPhone records how the phone's service stands (internal/phone
// tells it when the service starts or stops taking notices): Status
// carries it, and trays hear of it at once (EventPhone) rather than at
// their next read.
func (ph *Phone) ReportPhone(l supervisor.PhoneLink) {
	ph.st.phone.Store(&l)
	ph.st.bus.Publish(supervisor.Event{Kind: supervisor.EventPhone, Phone: &l})
}

// phoneLink is the phone's service as Status says it: nil when config.toml
// has no [phone] table (any more), or nothing was reported yet.
func (ph *Phone) phoneLink() *supervisor.PhoneLink {
	l := ph.st.phone.Load()
	if l == nil || !ph.st.Config().Phone.Enabled() {
		return nil
	}
	c := *l
	return &c
}

// PhoneSettings is config.toml's [phone] table as the dashboard's Phone
// settings show it; nil when there is none.
func (ph *Phone) PhoneSettings(ctx context.Context) map[string]any {
	return ph.st.Config().Phone.Table()
}

// SetPhoneSettings writes t as config.toml's [phone] table (the rest of
// the file kept), checked first like every key of the file: a bad value
// is refused in one sentence and nothing is written. It applies at once:
// the phone forwarder reads the table for each notice. A t without a
// service removes the table.
func (ph *Phone) SetPhoneSettings(ctx context.Context, t map[string]any) (map[string]any, error) {
	ph.st.cfgMu.Lock()
	defer ph.st.cfgMu.Unlock()
	cur := ph.st.Config()
	data, err := ph.st.files.ReadConfig(cur.Path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", cur.Path, err)
	}
	out, cfg, err := config.SetPhone(cur.Path, data, t, cur.Platform)
	if err != nil {
		return nil, supervisor.Invalidf("%s", err.Error())
	}
	if err := ph.st.files.WriteConfig(cur.Path, out); err != nil {
		return nil, err
	}
	ph.st.mu.Lock()
	ph.st.cfg = cfg
	ph.st.mu.Unlock()
	ph.st.log.Info("phone settings changed", "service", cfg.Phone.Service, "url", cfg.Phone.URL)
	return cfg.Phone.Table(), nil
}
