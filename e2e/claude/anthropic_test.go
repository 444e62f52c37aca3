//go:build linux

package claude

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// turn is one scripted answer of the model: text, or a call of a tool.
type turn struct {
	Text  string
	Tool  string         // tool_use name, e.g. mcp__buildstation__complete_task
	Input map[string]any // the tool's input
	Delay time.Duration  // before answering: a model that thinks
}

func say(text string) turn { return turn{Text: text} }

func call(tool string, input map[string]any) turn { return turn{Tool: tool, Input: input} }

// apiRequest is what the stand-in recorded of one request.
type apiRequest struct {
	Main     bool     // an agent-loop request (it offers the agent's tools)
	Model    string   // as asked
	Tools    []string // names of the tools offered
	Users    []string // text of every user message, in order
	LastUser string   // text of the last user message
	Answer   string   // what the stand-in answered, for failure reports
}

// fakeAPI is a scripted stand-in of the Anthropic Messages API: POST
// /v1/messages with "stream": true answered by the documented SSE events.
// Agent-loop requests take the next scripted turn; anything else Claude
// Code asks (titles, the auto-mode classifier, haiku helpers) and loop
// requests past the script get a short harmless text.
type fakeAPI struct {
	srv *httptest.Server
	mu  sync.Mutex
	// script is the queue of turns for agent-loop requests.
	script []turn
	reqs   []apiRequest
	seq    int
	// usage is what every answer reports; nil: 100 in, 10 out.
	usage *apiUsage
}

// apiUsage is an answer's usage as the Messages API reports it: the input
// side in message_start, the output in message_delta.
type apiUsage struct {
	Input, CacheRead, CacheWrite, Output int64
}

func newFakeAPI(t *testing.T, script ...turn) *fakeAPI {
	t.Helper()
	f := &fakeAPI{script: script}
	// httptest listens on 127.0.0.1 already; say so, since the session
	// must reach it over loopback only.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(f.serve)}}
	f.srv.Start()
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) URL() string { return f.srv.URL }

// requests returns a copy of what was asked so far.
func (f *fakeAPI) requests() []apiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiRequest(nil), f.reqs...)
}

// left is how many scripted turns have not been asked for yet.
func (f *fakeAPI) left() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.script)
}

// dump is the request log for a failure report.
func (f *fakeAPI) dump() string {
	var b strings.Builder
	for i, r := range f.requests() {
		fmt.Fprintf(&b, "#%d main=%v model=%s tools=%d last user=%q → %s\n", i, r.Main, r.Model, len(r.Tools), clip(r.LastUser, 200), r.Answer)
	}
	return b.String()
}

type wireRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	switch {
	case strings.HasSuffix(r.URL.Path, "/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 100})
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages"):
		writeJSON(w, map[string]any{})
		return
	}
	var req wireRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rec := apiRequest{Model: req.Model}
	for _, t := range req.Tools {
		rec.Tools = append(rec.Tools, t.Name)
		// The agent loop offers the built-in tools; side requests offer
		// none, or a tool of their own.
		if t.Name == "Bash" || strings.HasPrefix(t.Name, "mcp__") {
			rec.Main = true
		}
	}
	for _, m := range req.Messages {
		if m.Role == "user" {
			rec.Users = append(rec.Users, contentText(m.Content))
		}
	}
	if n := len(rec.Users); n > 0 {
		rec.LastUser = rec.Users[n-1]
	}

	f.mu.Lock()
	next := say("OK.")
	if rec.Main && len(f.script) > 0 {
		next, f.script = f.script[0], f.script[1:]
	}
	f.seq++
	id := f.seq
	if next.Tool != "" {
		rec.Answer = "tool_use " + next.Tool
	} else {
		rec.Answer = "text " + clip(next.Text, 60)
	}
	f.reqs = append(f.reqs, rec)
	f.mu.Unlock()

	time.Sleep(next.Delay)
	if !req.Stream {
		writeJSON(w, message(id, req.Model, next))
		return
	}
	streamTurn(w, id, req.Model, next, f.usage)
}

// contentText flattens a message's content (a string or blocks) to text.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "tool_result":
			parts = append(parts, "[tool_result] "+contentText(b.Content))
		}
	}
	return strings.Join(parts, "\n")
}

// streamTurn writes one answer as the Messages API's SSE events.
func streamTurn(w http.ResponseWriter, id int, model string, t turn, u *apiUsage) {
	if u == nil {
		u = &apiUsage{Input: 100, Output: 10}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	event := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if fl != nil {
			fl.Flush()
		}
	}
	msg := message(id, model, turn{})
	msg["content"] = []any{}
	msg["stop_reason"] = nil
	msg["usage"] = map[string]any{"input_tokens": u.Input, "cache_read_input_tokens": u.CacheRead,
		"cache_creation_input_tokens": u.CacheWrite, "output_tokens": 1}
	event("message_start", map[string]any{"type": "message_start", "message": msg})
	stop := "end_turn"
	if t.Tool != "" {
		stop = "tool_use"
		input, _ := json.Marshal(t.Input)
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%03d", id), "name": t.Tool, "input": map[string]any{}}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
	} else {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": t.Text}})
	}
	event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": u.Output}})
	event("message_stop", map[string]any{"type": "message_stop"})
}

// message is a whole (non-streamed) answer.
func message(id int, model string, t turn) map[string]any {
	content := []any{map[string]any{"type": "text", "text": t.Text}}
	stop := "end_turn"
	if t.Tool != "" {
		content = []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%03d", id), "name": t.Tool, "input": t.Input}}
		stop = "tool_use"
	}
	return map[string]any{"id": fmt.Sprintf("msg_%03d", id), "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 10}}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
