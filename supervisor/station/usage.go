package station

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// prices is the config's price table.
func (co *costs) prices() prices { return prices(co.st.Config().Prices) }

// recordUsage prices a session's usage so far and records it; the cost it
// added since the last reading counts toward its project's day.
func (co *costs) recordUsage(s *session, tu supervisor.TranscriptUsage) {
	u := co.prices().Usage(tu)
	old := s.meter.setUsage(u)
	if d := u.CostUSD - old.CostUSD; d > 0 {
		co.spend(s, d)
	}
}

// cost is what t costs at p, in dollars.
func cost(p config.Price, t supervisor.Tokens) float64 {
	t = t.Bounded()
	micro := float64(t.Input)*p.InputPerMTok + float64(t.Output)*p.OutputPerMTok +
		float64(t.CacheRead)*p.CacheReadPerMTok + float64(t.CacheWrite)*p.CacheWritePerMTok
	return micro / 1e6
}

// prices finds a model's price: the row named exactly, else the longest
// row name the model starts with ("claude-sonnet-4" prices
// "claude-sonnet-4-5-20250929").
type prices map[string]config.Price

// For is model's price; ok is false when no row covers it.
func (ps prices) For(model string) (config.Price, bool) {
	model = strings.TrimSuffix(model, "[1m]")
	if p, ok := ps[model]; ok {
		return p, true
	}
	best, found := "", false
	for name := range ps {
		if strings.HasPrefix(model, name) && len(name) > len(best) {
			best, found = name, true
		}
	}
	return ps[best], found
}

// maxUnpriced bounds the unpriced models a session's usage names: the
// names are the agent's report, shown in every session's and the status's
// answer.
const maxUnpriced = 16

// Usage prices u: the cost to a millionth of a dollar, and how full the
// last model's context window is, in percent to one decimal.
func (ps prices) Usage(u supervisor.TranscriptUsage) supervisor.Usage {
	var out supervisor.Usage
	total := 0.0
	for model, t := range u.Models {
		t = t.Bounded() // an agent's report: no count wraps the sums
		out.InputTokens += t.Input + t.CacheRead + t.CacheWrite
		out.OutputTokens += t.Output
		p, ok := ps.For(model)
		if !ok {
			out.Unpriced = append(out.Unpriced, supervisor.ActivityDetail(model))
			continue
		}
		total += cost(p, t)
	}
	sort.Strings(out.Unpriced)
	if n := len(out.Unpriced); n > maxUnpriced {
		out.Unpriced = append(out.Unpriced[:maxUnpriced:maxUnpriced], fmt.Sprintf("… and %d more", n-maxUnpriced))
	}
	out.CostUSD = math.Round(total*1e6) / 1e6
	out.Model = supervisor.ActivityDetail(u.LastModel)
	window := int64(200_000)
	if p, ok := ps.For(u.LastModel); ok && p.ContextWindow > 0 {
		window = p.ContextWindow
	}
	if strings.HasSuffix(u.LastModel, "[1m]") {
		window = 1_000_000
	}
	if u.ContextTokens > 0 {
		out.ContextPct = math.Round(float64(u.ContextTokens)*1000/float64(window)) / 10
	}
	return out
}

// meterStatus adds what the sessions in list do and cost to s, and each
// project's cost today.
func (co *costs) meterStatus(s *supervisor.Status, list []supervisor.SessionInfo) {
	for _, si := range list {
		if si.Activity != "" {
			if s.Activity == nil {
				s.Activity = map[string]string{}
			}
			s.Activity[si.ID] = si.Activity
		}
		if u := si.Usage; u != nil {
			if s.Usage == nil {
				s.Usage = &supervisor.Usage{}
			}
			s.Usage.InputTokens += u.InputTokens
			s.Usage.OutputTokens += u.OutputTokens
			s.Usage.CostUSD = math.Round((s.Usage.CostUSD+u.CostUSD)*1e6) / 1e6
			s.Usage.ContextPct = max(s.Usage.ContextPct, u.ContextPct)
		}
	}
	if spent := co.spentToday(today(time.Now())); len(spent) > 0 {
		s.SpentToday = spent
	}
}
