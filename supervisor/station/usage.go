package station

import (
	"github.com/buildstation/buildstation/supervisor"
)

// prices is the config's price table as the vocabulary prices usage.
func (st *Station) prices() supervisor.Prices { return supervisor.Prices(st.Config().Prices) }

// recordUsage prices a session's usage so far and records it; the cost it
// added since the last reading counts toward its project's day.
func (st *Station) recordUsage(s *session, tu supervisor.TranscriptUsage) {
	u := st.prices().Usage(tu)
	old := s.meter.setUsage(u)
	if d := u.CostUSD - old.CostUSD; d > 0 {
		st.spend(s, d)
	}
}

// spend is a placeholder the budgets fill in.
func (st *Station) spend(s *session, usd float64) {}
