package supervisor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Tokens are one model's token counts, as the Messages API reports them.
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
}

// MaxTokens bounds one count of Tokens (a trillion): what an agent reports
// is clamped to [0, MaxTokens], so no sum or cost of them wraps around.
const MaxTokens int64 = 1 << 40

// Add is t and o together, each count bounded (Bounded).
func (t Tokens) Add(o Tokens) Tokens {
	t, o = t.Bounded(), o.Bounded()
	return Tokens{boundTokens(t.Input + o.Input), boundTokens(t.Output + o.Output), boundTokens(t.CacheRead + o.CacheRead), boundTokens(t.CacheWrite + o.CacheWrite)}
}

// Bounded is t with every count within [0, MaxTokens].
func (t Tokens) Bounded() Tokens {
	return Tokens{boundTokens(t.Input), boundTokens(t.Output), boundTokens(t.CacheRead), boundTokens(t.CacheWrite)}
}

func boundTokens(n int64) int64 { return max(0, min(n, MaxTokens)) }

// TranscriptUsage is what a session's transcript says it used so far: the
// tokens per model, and how much context the last request carried. The
// agent's hook reads it (ReadTranscriptUsage) and sends it whole; the
// station prices it.
type TranscriptUsage struct {
	Models map[string]Tokens `json:"models,omitempty"`
	// LastModel and ContextTokens are the latest main-thread message's
	// model and the whole input it was sent (input, cache read and cache
	// written), which is how full the context window is.
	LastModel     string `json:"last_model,omitempty"`
	ContextTokens int64  `json:"context_tokens,omitempty"`
}

// Usage is a session's usage as `session ls --json` and `status --json`
// show it. InputTokens counts every token sent, cached or not.
type Usage struct {
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	ContextPct   float64 `json:"context_pct"`
	Model        string  `json:"model,omitempty"`
	// Unpriced names the models the price table has no row for: their
	// tokens are counted, their cost is not (add [prices."MODEL"]).
	Unpriced []string `json:"unpriced,omitempty"`
}

// Cost is the cost as a person reads it: "$1.23"; "cost unknown" when
// no model it used has a price (never "$0.00", which reads as free);
// "$1.23 + unknown" when some of them have none.
func (u Usage) Cost() string {
	switch {
	case len(u.Unpriced) == 0:
		return fmt.Sprintf("$%.2f", u.CostUSD)
	case u.CostUSD == 0:
		return "cost unknown"
	}
	return fmt.Sprintf("$%.2f + unknown", u.CostUSD)
}

// maxTranscriptLine is the longest transcript line read; a longer one (a
// huge tool result) is skipped, since usage lines are short.
const maxTranscriptLine = 64 << 20

// ReadTranscriptUsage sums the usage in a Claude Code transcript (JSONL).
// Claude Code writes one line per content block of an answer, each with the
// answer's usage so far, so each message id counts once, as its last line
// says; lines of a subagent (isSidechain) count toward the tokens but not
// toward the context of the main thread.
func ReadTranscriptUsage(r io.Reader) (TranscriptUsage, error) {
	type line struct {
		Type      string `json:"type"`
		Sidechain bool   `json:"isSidechain"`
		Message   struct {
			ID    string `json:"id"`
			Model string `json:"model"`
			Usage *struct {
				Input      int64 `json:"input_tokens"`
				Output     int64 `json:"output_tokens"`
				CacheRead  int64 `json:"cache_read_input_tokens"`
				CacheWrite int64 `json:"cache_creation_input_tokens"`
			} `json:"usage"`
		} `json:"message"`
	}
	type entry struct {
		model string
		t     Tokens
	}
	byID := map[string]entry{}
	var order []string
	var u TranscriptUsage
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxTranscriptLine)
	for n := 0; sc.Scan(); n++ {
		b := sc.Bytes()
		if !bytes.Contains(b, []byte(`"usage"`)) {
			continue
		}
		var l line
		if json.Unmarshal(b, &l) != nil || l.Type != "assistant" || l.Message.Usage == nil || l.Message.Model == "" || l.Message.Model == "<synthetic>" {
			continue
		}
		m := l.Message
		t := Tokens{m.Usage.Input, m.Usage.Output, m.Usage.CacheRead, m.Usage.CacheWrite}
		id := m.ID
		if id == "" {
			id = fmt.Sprintf("line %d", n)
		}
		if _, seen := byID[id]; !seen {
			order = append(order, id)
		}
		byID[id] = entry{m.Model, t}
		if !l.Sidechain {
			u.LastModel, u.ContextTokens = m.Model, t.Input+t.CacheRead+t.CacheWrite
		}
	}
	if err := sc.Err(); err != nil {
		return u, fmt.Errorf("read the transcript: %w", err)
	}
	for _, id := range order {
		e := byID[id]
		if u.Models == nil {
			u.Models = map[string]Tokens{}
		}
		u.Models[e.model] = u.Models[e.model].Add(e.t)
	}
	return u, nil
}
