package station

import (
	"context"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// ReportPhone records how the phone's service stands (internal/phone
// tells it when the service starts or stops taking notices): Status
// carries it, and trays hear of it at once (EventPhone) rather than at
// their next read.
func (st *Station) ReportPhone(l supervisor.PhoneLink) {
	st.phone.Store(&l)
	st.bus.Publish(supervisor.Event{Kind: supervisor.EventPhone, Phone: &l})
}

// phoneLink is the phone's service as Status says it: nil when config.toml
// has no [phone] table (any more), or nothing was reported yet.
func (st *Station) phoneLink() *supervisor.PhoneLink {
	l := st.phone.Load()
	if l == nil || !st.Config().Phone.Enabled() {
		return nil
	}
	c := *l
	return &c
}

// PhoneSettings is config.toml's [phone] table as the dashboard's Phone
// settings show it; nil when there is none.
func (st *Station) PhoneSettings(ctx context.Context) map[string]any {
	return st.Config().Phone.Table()
}

// SetPhoneSettings writes t as config.toml's [phone] table (the rest of
// the file kept), checked first like every key of the file: a bad value
// is refused in one sentence and nothing is written. It applies at once:
// the phone forwarder reads the table for each notice. A t without a
// service removes the table.
func (st *Station) SetPhoneSettings(ctx context.Context, t map[string]any) (map[string]any, error) {
	st.cfgMu.Lock()
	defer st.cfgMu.Unlock()
	cur := st.Config()
	data, err := st.files.ReadConfig(cur.Path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", cur.Path, err)
	}
	out, cfg, err := config.SetPhone(cur.Path, data, t, cur.Platform)
	if err != nil {
		return nil, supervisor.Invalidf("%s", err.Error())
	}
	if err := st.files.WriteConfig(cur.Path, out); err != nil {
		return nil, err
	}
	st.mu.Lock()
	st.cfg = cfg
	st.mu.Unlock()
	st.log.Info("phone settings changed", "service", cfg.Phone.Service, "url", cfg.Phone.URL)
	return cfg.Phone.Table(), nil
}
