package phone

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// webhook posts each note as JSON in one of three shapes: "json" (the
// note's fields), "slack" (an incoming webhook's text and blocks) or
// "discord" (a webhook's content).
type webhook struct {
	url   string
	shape string
	token string // sent as a bearer token when set
	hc    *http.Client
}

func (w *webhook) Name() string {
	if w.shape == "" || w.shape == "json" {
		return "webhook"
	}
	return "webhook (" + w.shape + ")"
}

func (w *webhook) Answers() bool { return false }

// JSONBody is the "json" shape.
type JSONBody struct {
	Kind      string `json:"kind"`
	Title     string `json:"title"`
	Text      string `json:"text"`
	Project   string `json:"project,omitempty"`
	TaskID    string `json:"task_id,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	Click     string `json:"click,omitempty"`
}

// slackEscape escapes what Slack's mrkdwn reads as markup: &, < and >
// (a "<!channel>" in an agent's text would otherwise ping a channel).
var slackEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace

// WebhookBody is n as shape's JSON body.
func WebhookBody(shape string, n Note) ([]byte, error) {
	switch shape {
	case "slack":
		text := "*" + slackEscape(n.Title) + "*"
		if n.Text != "" {
			text += "\n" + slackEscape(n.Text)
		}
		if n.Click != "" {
			text += "\n<" + slackEscape(n.Click) + "|Open>"
		}
		type textObj struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		type block struct {
			Type string  `json:"type"`
			Text textObj `json:"text"`
		}
		return json.Marshal(struct {
			Text   string  `json:"text"`
			Blocks []block `json:"blocks"`
		}{Text: text, Blocks: []block{{Type: "section", Text: textObj{Type: "mrkdwn", Text: text}}}})
	case "discord":
		content := "**" + n.Title + "**"
		if n.Text != "" {
			content += "\n" + n.Text
		}
		if n.Click != "" {
			content += "\n" + n.Click
		}
		if len(content) > 2000 {
			content = Safe(content, 2000, false)
		}
		return json.Marshal(struct {
			Content         string `json:"content"`
			AllowedMentions struct {
				Parse []string `json:"parse"`
			} `json:"allowed_mentions"`
		}{Content: content, AllowedMentions: struct {
			Parse []string `json:"parse"`
		}{Parse: []string{}}})
	default:
		return json.Marshal(JSONBody{Kind: n.Kind, Title: n.Title, Text: n.Text, Project: n.Project, TaskID: n.TaskID, SessionID: n.SessionID, Click: n.Click})
	}
}

func (w *webhook) Send(ctx context.Context, n Note) (string, error) {
	body, err := WebhookBody(w.shape, n)
	if err != nil {
		return "", fmt.Errorf("encode a webhook's body: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("post to the webhook: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if w.token != "" {
		req.Header.Set("Authorization", "Bearer "+w.token)
	}
	resp, err := w.hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("post to the webhook: %w", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	answer := strings.TrimSpace(Safe(string(data), 200, true))
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("the webhook answered %d %s", resp.StatusCode, answer)
	}
	if answer == "" {
		return fmt.Sprintf("the webhook answered %d", resp.StatusCode), nil
	}
	return fmt.Sprintf("the webhook answered %d %s", resp.StatusCode, answer), nil
}
