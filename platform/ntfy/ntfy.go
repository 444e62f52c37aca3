package ntfy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Action is one of a notification's buttons. An "http" action makes the
// phone send Method (default POST) to URL with Body; "view" opens URL.
type Action struct {
	Action  string            `json:"action"`
	Label   string            `json:"label"`
	URL     string            `json:"url"`
	Method  string            `json:"method,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
	Clear   bool              `json:"clear,omitempty"`
}

// Message is a message as ntfy publishes and streams it (its JSON
// message format).
type Message struct {
	ID         string   `json:"id,omitempty"`
	Time       int64    `json:"time,omitempty"`
	Event      string   `json:"event,omitempty"` // "open", "keepalive", "message", …
	Topic      string   `json:"topic"`
	Message    string   `json:"message,omitempty"`
	Title      string   `json:"title,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Priority   int      `json:"priority,omitempty"` // 1 (min) to 5 (max); 0: the default, 3
	Click      string   `json:"click,omitempty"`
	Actions    []Action `json:"actions,omitempty"`
	SequenceID string   `json:"sequence_id,omitempty"`
}

// Client talks to one ntfy server.
type Client struct {
	Server string // "https://ntfy.sh", no trailing slash
	Token  string // an access token ("tk_…"); "" for none
	HTTP   *http.Client
}

// Error is what the server answered instead of taking a request.
type Error struct {
	Status int
	Text   string // ntfy's "error" field, or the body's start
}

func (e *Error) Error() string {
	return fmt.Sprintf("the ntfy server answered %d %s", e.Status, e.Text)
}

// Unauthorized reports whether the server refused the token (or its lack).
func (e *Error) Unauthorized() bool {
	return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
}

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: 30 * time.Second}
}

func (c *Client) auth(r *http.Request) {
	if c.Token != "" {
		r.Header.Set("Authorization", "Bearer "+c.Token)
	}
}

// Publish sends m as JSON to the server's root (ntfy's JSON publishing)
// and returns the message as the server kept it, with its id. A message
// with a SequenceID also carries it as X-Sequence-ID, so a notification
// published with that id earlier is updated, not added to.
func (c *Client) Publish(ctx context.Context, m Message) (Message, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return Message{}, fmt.Errorf("encode an ntfy message: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Server+"/", bytes.NewReader(body))
	if err != nil {
		return Message{}, fmt.Errorf("publish to ntfy: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if m.SequenceID != "" {
		req.Header.Set("X-Sequence-ID", m.SequenceID)
	}
	c.auth(req)
	resp, err := c.http().Do(req)
	if err != nil {
		return Message{}, fmt.Errorf("publish to ntfy at %s: %w", c.Server, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return Message{}, answerError(resp.StatusCode, data)
	}
	var got Message
	if err := json.Unmarshal(data, &got); err != nil {
		return Message{}, fmt.Errorf("read ntfy's answer to a publish: %w", err)
	}
	return got, nil
}

func answerError(status int, data []byte) error {
	var e struct {
		Error string `json:"error"`
	}
	text := strings.TrimSpace(string(data))
	if json.Unmarshal(data, &e) == nil && e.Error != "" {
		text = e.Error
	}
	if len(text) > 200 {
		text = text[:200]
	}
	return &Error{Status: status, Text: text}
}

// Subscribe follows topic's JSON stream and hands fn each "message"
// event, until ctx ends or the server closes the stream (then it returns
// nil; the caller reconnects). since is ntfy's since parameter: a
// message id, a Unix time, or "" for new messages only.
func (c *Client) Subscribe(ctx context.Context, topic, since string, fn func(Message)) error {
	u := c.Server + "/" + url.PathEscape(topic) + "/json"
	if since != "" {
		u += "?since=" + url.QueryEscape(since)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("follow ntfy topic %s: %w", topic, err)
	}
	c.auth(req)
	// The stream lasts: no client timeout, ctx ends it.
	hc := *c.http()
	hc.Timeout = 0
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("follow ntfy topic %s at %s: %w", topic, c.Server, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return answerError(resp.StatusCode, data)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var m Message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue // a line this client does not read; the next may be
		}
		if m.Event == "message" {
			fn(m)
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("follow ntfy topic %s: %w", topic, err)
	}
	return nil
}
