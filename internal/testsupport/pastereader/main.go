package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/term"
)

// quiet is how long the reader waits after a submission for anything
// more: a prompt split into several submissions shows as more than one.
const quiet = 3 * time.Second

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: pastereader OUT")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "pastereader:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	if old, err := term.MakeRaw(int(os.Stdin.Fd())); err == nil {
		defer term.Restore(int(os.Stdin.Fd()), old)
	}
	os.Stdout.WriteString("\x1b[?2004h pastereader: bracketed paste on; listing the station's tools\r\n")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cs, err := connect(ctx)
	if err != nil {
		return err
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		return fmt.Errorf("list the station's tools: %w", err)
	}
	os.Stdout.WriteString("pastereader: waiting for the prompt\r\n")

	var mu sync.Mutex
	var raw []byte
	got := make(chan struct{}, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := os.Stdin.Read(buf)
			mu.Lock()
			raw = append(raw, buf[:n]...)
			mu.Unlock()
			select {
			case got <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	// Read until one submission came and nothing more for quiet.
	deadline := time.After(4 * time.Minute)
	for {
		mu.Lock()
		subs := len(parse(raw).Submissions)
		mu.Unlock()
		wait := time.Hour
		if subs > 0 {
			wait = quiet
		}
		select {
		case <-got:
			continue
		case <-time.After(wait):
		case <-deadline:
		}
		break
	}
	mu.Lock()
	data := append([]byte(nil), raw...)
	mu.Unlock()
	rec := parse(data)
	if len(rec.Submissions) > 0 {
		rec.Prompt = rec.Submissions[0]
		if f, ok := pointer(rec.Prompt); ok {
			rec.PromptFile = f
			b, err := os.ReadFile(f)
			if err != nil {
				return fmt.Errorf("read the prompt file the line names: %w", err)
			}
			rec.Prompt = string(b)
		}
	}
	if err := os.WriteFile(out+".raw", data, 0o600); err != nil {
		return err
	}
	js, _ := json.MarshalIndent(rec, "", "  ")
	if err := os.WriteFile(out+".json", js, 0o600); err != nil {
		return err
	}
	fmt.Fprintf(os.Stdout, "pastereader: %d submission(s), %d paste(s), %d bytes\r\n", len(rec.Submissions), rec.Pastes, len(data))
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "complete_task", Arguments: map[string]any{
		"summary": fmt.Sprintf("pastereader: %d submission(s), %d paste(s)", len(rec.Submissions), rec.Pastes)}})
	return err
}

// connect opens an MCP session with the station as this session's agent.
func connect(ctx context.Context) (*mcp.ClientSession, error) {
	url, token := os.Getenv("BUILDSTATION_URL"), os.Getenv("BUILDSTATION_TOKEN")
	if url == "" || token == "" {
		return nil, fmt.Errorf("BUILDSTATION_URL and BUILDSTATION_TOKEN are unset: run me as a session's agent")
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "pastereader", Version: "1"}, nil)
	return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: bearer(token)}}, nil)
}

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}
