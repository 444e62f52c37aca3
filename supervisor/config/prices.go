package config

import (
	"fmt"
	"maps"
	"strings"
)

// Price is one model's price in US dollars per million tokens, and its
// context window in tokens (0: 200,000).
type Price struct {
	InputPerMTok      float64
	OutputPerMTok     float64
	CacheReadPerMTok  float64
	CacheWritePerMTok float64
	ContextWindow     int64
}

// DefaultPrices is the one price table: list prices of current models, by
// model name or the prefix of a family ("claude-sonnet-4" prices
// "claude-sonnet-4-5-20250929"; the longest matching name wins). A
// [prices."MODEL"] table in config.toml overrides or adds a row. Cache
// writes are priced at the 5-minute rate Claude Code uses.
//
// The Claude rows follow the model catalog bundled in Claude Code 2.1.328
// (its pricing_tiers and context windows), which the e2e suite pins; every
// model of that catalog has its row, so that no family prefix prices a
// newer model at an older one's rate (claude-opus-4 is $15/$75, its 4.5 to
// 4.8 are $5/$25).
var DefaultPrices = map[string]Price{
	"claude-3-5-haiku":  {0.80, 4, 0.08, 1, 200_000},
	"claude-3-5-sonnet": {3, 15, 0.30, 3.75, 200_000},
	"claude-3-7-sonnet": {3, 15, 0.30, 3.75, 200_000},
	"claude-haiku-4-5":  {1, 5, 0.10, 1.25, 200_000},
	// Above 100,000 prompt tokens the catalog prices haiku 5.5 higher
	// ($0.50/$2.50); a row has one rate, so long prompts are undercounted.
	"claude-haiku-5-5":  {0.10, 0.50, 0.01, 0.125, 1_000_000},
	"claude-sonnet-4":   {3, 15, 0.30, 3.75, 200_000},
	"claude-sonnet-5":   {2, 10, 0.20, 2.5, 1_000_000},
	"claude-sonnet-5-5": {2, 10, 0.10, 2.5, 1_000_000},
	"claude-opus-4":     {15, 75, 1.50, 18.75, 200_000},
	"claude-opus-4-5":   {5, 25, 0.50, 6.25, 200_000},
	"claude-opus-4-6":   {5, 25, 0.50, 6.25, 200_000},
	"claude-opus-4-7":   {5, 25, 0.50, 6.25, 1_000_000},
	"claude-opus-4-8":   {5, 25, 0.50, 6.25, 1_000_000},
	"claude-opus-5":     {5, 25, 0.50, 6.25, 1_000_000},
	"claude-opus-5-5":   {4, 20, 0.20, 5, 1_000_000},
	"claude-fable-5":    {10, 50, 1, 12.5, 1_000_000},
	"claude-fable-5-1":  {10, 50, 0.25, 12.5, 1_000_000},
	"claude-fable-5-2":  {8, 40, 0.20, 10, 1_000_000},
	"claude-mythos-5":   {10, 50, 1, 12.5, 1_000_000},
	"claude-mythos-5-1": {10, 50, 0.25, 12.5, 1_000_000},
	"claude-mythos-5-2": {8, 40, 0.20, 10, 1_000_000},
	"gpt-5":             {1.25, 10, 0.125, 0, 400_000},
	"gpt-5-mini":        {0.25, 2, 0.025, 0, 400_000},
	"gpt-5-nano":        {0.05, 0.40, 0.005, 0, 400_000},
}

// priceKeys are the keys of a [prices."MODEL"] table.
var priceKeys = keysOf(`prices."MODEL"`)

// prices reads [prices."MODEL"] tables over the default table.
func (c *checker) prices(cfg *Config, key keyPath, v any) {
	t, ok := c.table(key, v, "[prices]")
	if !ok {
		return
	}
	for _, model := range sortedKeys(t) {
		mk := key.with(model)
		row, ok := c.table(mk, t[model], `[prices."`+model+`"]`)
		if !ok {
			continue
		}
		p := cfg.Prices[model] // a default row keeps the keys not given
		for _, k := range sortedKeys(row) {
			if !c.readKey(`prices."MODEL"`, k, dst{pr: &p}, mk.with(k), row[k]) {
				c.unknown(mk.with(k), strings.Join(priceKeys, ", "))
			}
		}
		cfg.Prices[model] = p
	}
}

// money reads a non-negative number (an integer or a float).
func (c *checker) money(key keyPath, v any) (float64, bool) {
	var f float64
	switch n := v.(type) {
	case int64:
		f = float64(n)
	case float64:
		f = n
	default:
		c.fail(key, nil, fmt.Sprintf("is %T, not a number", v), "write a number of US dollars, like 3 or 0.30")
		return 0, false
	}
	if f < 0 {
		c.fail(key, nil, "is negative", "write 0 or more")
		return 0, false
	}
	return f, true
}

func defaultPrices() map[string]Price { return maps.Clone(DefaultPrices) }
