package station

import "github.com/buildstation/buildstation/supervisor"

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
