package station

import (
	"fmt"
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
