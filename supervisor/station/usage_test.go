package station

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// The figures of supervisor's TestTranscriptUsageCountsEachMessageOnce,
// priced by the default table: exact to the millionth of a dollar.
func TestUsageIsPricedExactly(t *testing.T) {
	u := supervisor.TranscriptUsage{
		Models: map[string]supervisor.Tokens{
			"claude-sonnet-4-5-20250929": {Input: 1280, Output: 1920, CacheRead: 16200, CacheWrite: 15900},
			"claude-haiku-4-5-20251001":  {Input: 300, Output: 50},
		},
		LastModel: "claude-sonnet-4-5-20250929", ContextTokens: 80 + 16200 + 900,
	}
	got := prices(config.DefaultPrices).Usage(u)
	// sonnet: 1280×3 + 1920×15 + 16200×0.30 + 15900×3.75 = 3840 + 28800 + 4860 + 59625 = 97125 µ$
	// haiku:  300×1 + 50×5 = 550 µ$
	if got.CostUSD != 0.097675 || fmt.Sprintf("$%.2f", got.CostUSD) != "$0.10" {
		t.Errorf("cost %v, want 0.097675", got.CostUSD)
	}
	if got.InputTokens != 1280+16200+15900+300 || got.OutputTokens != 1920+50 {
		t.Errorf("tokens %d in, %d out", got.InputTokens, got.OutputTokens)
	}
	if got.ContextPct != 8.6 { // 17180 of 200000
		t.Errorf("context %v%%, want 8.6", got.ContextPct)
	}
}

// A model with no row is counted but not priced, and named.
func TestUnpricedModelIsNamed(t *testing.T) {
	u := supervisor.TranscriptUsage{Models: map[string]supervisor.Tokens{"mystery-1": {Input: 1000, Output: 10}, "gpt-5-codex": {Input: 1_000_000}}}
	got := prices(config.DefaultPrices).Usage(u)
	if got.CostUSD != 1.25 || len(got.Unpriced) != 1 || got.Unpriced[0] != "mystery-1" {
		t.Errorf("%+v", got)
	}
}

// Every Claude model the pinned Claude Code (2.1.328) knows, as its bundled
// model catalog prices it (pricing_tiers: input, output, cache read, 5-minute
// cache write, per million tokens; context window), resolves to that price
// here, dated ids too. The catalog was read from the CLI's binary
// (.cache/claude): `strings claude | grep pricing_tiers`.
func TestDefaultPricesFollowClaudeCodesCatalog(t *testing.T) {
	tier := func(in, out, read, write float64, window int64) config.Price {
		return config.Price{InputPerMTok: in, OutputPerMTok: out, CacheReadPerMTok: read, CacheWritePerMTok: write, ContextWindow: window}
	}
	const k200, m1 = 200_000, 1_000_000
	for model, want := range map[string]config.Price{
		"claude-3-5-haiku-20241022":  tier(0.8, 4, 0.08, 1, k200),
		"claude-3-5-sonnet-20241022": tier(3, 15, 0.3, 3.75, k200),
		"claude-3-7-sonnet-20250219": tier(3, 15, 0.3, 3.75, k200),
		"claude-haiku-4-5-20251001":  tier(1, 5, 0.1, 1.25, k200),
		"claude-haiku-5-5":           tier(0.1, 0.5, 0.01, 0.125, m1),
		"claude-sonnet-4-20250514":   tier(3, 15, 0.3, 3.75, k200),
		"claude-sonnet-4-5-20250929": tier(3, 15, 0.3, 3.75, k200),
		"claude-sonnet-4-6":          tier(3, 15, 0.3, 3.75, k200),
		"claude-sonnet-5":            tier(2, 10, 0.2, 2.5, m1),
		"claude-sonnet-5-5":          tier(2, 10, 0.1, 2.5, m1),
		"claude-opus-4-20250514":     tier(15, 75, 1.5, 18.75, k200),
		"claude-opus-4-1-20250805":   tier(15, 75, 1.5, 18.75, k200),
		"claude-opus-4-5-20251101":   tier(5, 25, 0.5, 6.25, k200),
		"claude-opus-4-6":            tier(5, 25, 0.5, 6.25, k200),
		"claude-opus-4-7":            tier(5, 25, 0.5, 6.25, m1),
		"claude-opus-4-8":            tier(5, 25, 0.5, 6.25, m1),
		"claude-opus-5":              tier(5, 25, 0.5, 6.25, m1),
		"claude-opus-5-5":            tier(4, 20, 0.2, 5, m1),
		"claude-fable-5":             tier(10, 50, 1, 12.5, m1),
		"claude-fable-5-1":           tier(10, 50, 0.25, 12.5, m1),
		"claude-fable-5-2":           tier(8, 40, 0.2, 10, m1),
		"claude-mythos-5":            tier(10, 50, 1, 12.5, m1),
		"claude-mythos-5-1":          tier(10, 50, 0.25, 12.5, m1),
		"claude-mythos-5-2":          tier(8, 40, 0.2, 10, m1),
	} {
		got, ok := prices(config.DefaultPrices).For(model)
		if !ok || got != want {
			t.Errorf("%s priced %+v (found %v), want %+v", model, got, ok, want)
		}
	}
}

// Claude Code 2.1.328's default model is priced: a session on it shows a
// cost, and its context is measured against its 1M-token window.
func TestDefaultModelIsPriced(t *testing.T) {
	u := supervisor.TranscriptUsage{Models: map[string]supervisor.Tokens{"claude-opus-5-5": {Input: 1_000_000, Output: 100_000, CacheRead: 1_000_000, CacheWrite: 200_000}},
		LastModel: "claude-opus-5-5", ContextTokens: 250_000}
	got := prices(config.DefaultPrices).Usage(u)
	// $4 + $2 + $0.20 + $1 = $7.20
	if got.CostUSD != 7.2 || len(got.Unpriced) != 0 || got.ContextPct != 25 {
		t.Errorf("%+v, want $7.20 priced, 25%% of a 1M window", got)
	}
}

// Issue 33: {"input": 9000000000000000000} tokens of claude-opus-4 made a
// cost whose conversion to millionths overflowed to −9.22e18, and the
// project's spend went down. Token counts are bounded, and a cost becomes
// a spend that is never negative.
func TestAbsurdUsageNeverSpendsNegative(t *testing.T) {
	ps := prices{"claude-opus-4": {InputPerMTok: 15, OutputPerMTok: 75}}
	u := ps.Usage(supervisor.TranscriptUsage{Models: map[string]supervisor.Tokens{"claude-opus-4": {Input: 9_000_000_000_000_000_000}}})
	if m := microOf(u.CostUSD); m <= 0 || m > supervisor.MaxSpendMicro {
		t.Errorf("9e18 input tokens cost %v, a spend of %d millionths", u.CostUSD, m)
	}
	neg := ps.Usage(supervisor.TranscriptUsage{Models: map[string]supervisor.Tokens{"claude-opus-4": {Input: -5_000_000}}})
	if neg.CostUSD < 0 || microOf(-1) != 0 || microOf(math.NaN()) != 0 || microOf(math.Inf(1)) != supervisor.MaxSpendMicro {
		t.Errorf("negative tokens cost %v; microOf(-1, NaN, +Inf) = %d %d %d", neg.CostUSD, microOf(-1), microOf(math.NaN()), microOf(math.Inf(1)))
	}
}

// The acceptance pass of issue 33: an agent's hook reported 3,000 model
// names, each with an OSC title sequence, and every one was kept and
// answered in session ls --json and status --json. Names the agent
// reports are plain, bounded lines, and at most maxUnpriced of them are
// kept, the last saying how many more there were.
func TestReportedModelNamesArePlainAndBounded(t *testing.T) {
	models := map[string]supervisor.Tokens{}
	for i := range 3000 {
		models[fmt.Sprintf("m\x1b]0;pwn\a%05d", i)] = supervisor.Tokens{Input: 1}
	}
	long := "claude-" + strings.Repeat("x", 10_000)
	u := prices{}.Usage(supervisor.TranscriptUsage{Models: models, LastModel: "evil\x1b[2J" + long})
	if len(u.Unpriced) != maxUnpriced+1 || u.Unpriced[maxUnpriced] != "… and 2984 more" {
		t.Errorf("%d unpriced names kept, the last %q; want %d and a count of the rest", len(u.Unpriced), u.Unpriced[len(u.Unpriced)-1], maxUnpriced+1)
	}
	for _, m := range append(u.Unpriced, u.Model) {
		if strings.ContainsAny(m, "\x1b\a") || len(m) > 400 {
			t.Errorf("a reported model name is kept as %q (%d bytes)", m[:min(len(m), 60)], len(m))
		}
	}
	if u.InputTokens != 3000 {
		t.Errorf("the tokens of the models not named were lost: %d", u.InputTokens)
	}
}
