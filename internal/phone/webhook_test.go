package phone

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor/config"
)

// slackReceiver checks a post the way Slack's incoming webhooks document
// it (api.slack.com/messaging/webhooks, reference/block-kit): a JSON body
// with "text" (the notification's fallback, required with blocks),
// optional "blocks" of which a section's text object is "mrkdwn" or
// "plain_text" of at most 3,000 characters, and &, <, > escaped unless
// they form a <url|label> link. It answers 200 "ok", or 400
// "invalid_payload" / "no_text" as Slack does.
func slackReceiver(t *testing.T, got *map[string]any) *httptest.Server {
	link := regexp.MustCompile(`<https?://[^|>]+\|[^>]+>`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m map[string]any
		if r.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &m) != nil {
			http.Error(w, "invalid_payload", http.StatusBadRequest)
			return
		}
		text, _ := m["text"].(string)
		if strings.TrimSpace(text) == "" {
			http.Error(w, "no_text", http.StatusBadRequest)
			return
		}
		if strings.ContainsAny(link.ReplaceAllString(text, ""), "<>") {
			t.Errorf("text has unescaped < or >: %q", text)
		}
		blocks, _ := m["blocks"].([]any)
		for _, b := range blocks {
			b, _ := b.(map[string]any)
			to, _ := b["text"].(map[string]any)
			s, _ := to["text"].(string)
			if b["type"] != "section" || (to["type"] != "mrkdwn" && to["type"] != "plain_text") || s == "" || len([]rune(s)) > 3000 {
				http.Error(w, "invalid_blocks", http.StatusBadRequest)
				return
			}
		}
		*got = m
		w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The slack shape is what Slack's incoming webhooks take: escaped mrkdwn
// text with blocks, and "ok" is what the station reports it answered.
func TestSlackShape(t *testing.T) {
	var got map[string]any
	srv := slackReceiver(t, &got)
	svc, err := NewService(config.Phone{Service: "webhook", URL: srv.URL, Shape: "slack"}, "")
	if err != nil {
		t.Fatal(err)
	}
	answer, err := svc.Send(context.Background(), Note{Kind: "blocked", Title: "Blocked: fix <!channel> & co", Text: "gate failed: a > b", Click: "https://github.com/acme/web/issues/7"})
	if err != nil {
		t.Fatal(err)
	}
	if answer != "the webhook answered 200 ok" || svc.Name() != "webhook (slack)" {
		t.Errorf("answer %q, name %q", answer, svc.Name())
	}
	want := "*Blocked: fix &lt;!channel&gt; &amp; co*\ngate failed: a &gt; b\n<https://github.com/acme/web/issues/7|Open>"
	if got["text"] != want {
		t.Errorf("text %q\nwant %q", got["text"], want)
	}
	// What Slack refuses is said with Slack's own answer.
	_, err = (&webhook{url: srv.URL, shape: "json", hc: http.DefaultClient}).Send(context.Background(), Note{Title: "x"})
	if err == nil || !strings.Contains(err.Error(), "the webhook answered 400 no_text") {
		t.Errorf("a body Slack cannot read: %v", err)
	}
}

// Discord's shape pings nobody and fits its 2,000 characters; the plain
// shape carries the note's fields.
func TestDiscordAndJSONShapes(t *testing.T) {
	b, _ := WebhookBody("discord", Note{Title: "@everyone look", Text: strings.Repeat("x", 3000)})
	var d struct {
		Content         string `json:"content"`
		AllowedMentions struct {
			Parse []string `json:"parse"`
		} `json:"allowed_mentions"`
	}
	if err := json.Unmarshal(b, &d); err != nil || len(d.Content) > 2000 || d.AllowedMentions.Parse == nil || len(d.AllowedMentions.Parse) != 0 {
		t.Errorf("discord body %.120s (%v)", b, err)
	}
	b, _ = WebhookBody("json", Note{Kind: "blocked", Title: "Blocked: x", Project: "web", TaskID: "t1"})
	if string(b) != `{"kind":"blocked","title":"Blocked: x","text":"","project":"web","task_id":"t1"}` {
		t.Errorf("json body %s", b)
	}
}
