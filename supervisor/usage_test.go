package supervisor_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// A transcript in Claude Code's shape: one line per content block, each
// with the answer's usage so far (the last line of a message id counts), a
// subagent's line, a synthetic one and lines without usage. Its figures are
// known, so its cost is too, to the cent and below.
func TestTranscriptUsageIsPricedExactly(t *testing.T) {
	line := func(id, model string, side bool, in, cr, cw, out int) string {
		b, _ := json.Marshal(map[string]any{"type": "assistant", "isSidechain": side, "message": map[string]any{
			"id": id, "model": model, "role": "assistant",
			"usage": map[string]any{"input_tokens": in, "cache_read_input_tokens": cr, "cache_creation_input_tokens": cw, "output_tokens": out}}})
		return string(b)
	}
	transcript := strings.Join([]string{
		`{"type":"user","message":{"role":"user","content":"fix the bug"}}`,
		line("msg_1", "claude-sonnet-4-5-20250929", false, 1200, 0, 15000, 3),   // first block of msg_1
		line("msg_1", "claude-sonnet-4-5-20250929", false, 1200, 0, 15000, 420), // its last block: counts
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ok"}]}}`,
		line("msg_2", "claude-haiku-4-5-20251001", true, 300, 0, 0, 50), // a subagent
		line("msg_3", "claude-sonnet-4-5-20250929", false, 80, 16200, 900, 1500),
		line("msg_4", "<synthetic>", false, 0, 0, 0, 0),
		"not json at all",
	}, "\n")
	u, err := supervisor.ReadTranscriptUsage(strings.NewReader(transcript))
	if err != nil {
		t.Fatal(err)
	}
	sonnet := u.Models["claude-sonnet-4-5-20250929"]
	if sonnet != (supervisor.Tokens{Input: 1280, Output: 1920, CacheRead: 16200, CacheWrite: 15900}) {
		t.Errorf("sonnet %+v", sonnet)
	}
	if u.LastModel != "claude-sonnet-4-5-20250929" || u.ContextTokens != 80+16200+900 {
		t.Errorf("context %s %d", u.LastModel, u.ContextTokens)
	}
	got := supervisor.Prices(config.DefaultPrices).Usage(u)
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
	got := supervisor.Prices(config.DefaultPrices).Usage(u)
	if got.CostUSD != 1.25 || len(got.Unpriced) != 1 || got.Unpriced[0] != "mystery-1" {
		t.Errorf("%+v", got)
	}
}

func TestDescribeTool(t *testing.T) {
	tests := []struct{ tool, input, want string }{
		{"Bash", `{"command":"npm publish --tag next","description":"x"}`, "permission Bash: npm publish --tag next"},
		{"Write", `{"file_path":"src/auth.go","content":"package auth\n…"}`, "permission Write: src/auth.go"},
		{"Bash", `{"command":"echo a\necho b"}`, "permission Bash: echo a echo b"},
		{"mcp__x__y", `{"a":1,"b":"two"}`, `permission mcp__x__y: {"a":1,"b":"two"}`},
		{"AskUserQuestion", `{"questions":[{"question":"Which colour?","options":[{"label":"red"},{"label":"blue"}]}]}`, "question AskUserQuestion: Which colour? [red blue]"},
	}
	for _, tt := range tests {
		r := supervisor.DescribeTool(tt.tool, json.RawMessage(tt.input))
		got := r.Kind + " " + r.Tool + ": " + r.Input
		if len(r.Options) > 0 {
			got += " " + fmt.Sprint(r.Options)
		}
		if got != tt.want {
			t.Errorf("%s %s: %q, want %q", tt.tool, tt.input, got, tt.want)
		}
	}
	long := supervisor.DescribeTool("Bash", json.RawMessage(`{"command":"`+strings.Repeat("é", 400)+`"}`))
	if len(long.Input) > 304 || !strings.HasSuffix(long.Input, "…") {
		t.Errorf("a long command is %d bytes", len(long.Input))
	}
}
