package config

import (
	"strings"
	"testing"
)

// [prices."MODEL"] overrides a default row key by key, adds a model the
// table lacks, and daily_budget_usd is a setting a project may override.
func TestPricesAndBudget(t *testing.T) {
	dir := t.TempDir()
	text := `[defaults]
daily_budget_usd = 20

[prices."claude-sonnet-4"]
input_per_mtok = 2.5

[prices."claude-opus-9"]
input_per_mtok = 5
output_per_mtok = 25
cache_read_per_mtok = 0.5
cache_write_per_mtok = 6.25

[[projects]]
name = "web"
path = '` + dir + `'
daily_budget_usd = 7.5
`
	cfg, err := Parse(dir+"/config.toml", []byte(text), Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Prices["claude-sonnet-4"]; got.InputPerMTok != 2.5 || got.OutputPerMTok != 15 {
		t.Errorf("sonnet %+v: want input overridden, output kept", got)
	}
	if got := cfg.Prices["claude-opus-9"]; got != (Price{5, 25, 0.5, 6.25, 0}) {
		t.Errorf("added row %+v", got)
	}
	if cfg.Defaults.DailyBudgetUSD != 20 || cfg.Projects[0].Settings.DailyBudgetUSD != 7.5 {
		t.Errorf("budgets %v %v", cfg.Defaults.DailyBudgetUSD, cfg.Projects[0].Settings.DailyBudgetUSD)
	}
	if DefaultPrices["claude-sonnet-4"].InputPerMTok != 3 {
		t.Error("an override changed the default table")
	}
	for _, bad := range []string{
		"[prices.\"m\"]\ninput_per_mtk = 1\n",
		"[prices.\"m\"]\ninput_per_mtok = -1\n",
		"[prices.\"m\"]\ninput_per_mtok = \"3\"\n",
		"[defaults]\ndaily_budget_usd = \"20\"\n",
	} {
		_, err := Parse(dir+"/config.toml", []byte(bad), Platform{})
		if err == nil || !strings.Contains(err.Error(), "config.toml:2") {
			t.Errorf("%q: %v, want an error at line 2", bad, err)
		}
	}
}
