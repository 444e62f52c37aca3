package phone

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/buildstation/buildstation/platform/ntfy"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Service is where notes go: ntfy, or a webhook.
type Service interface {
	// Name says the service as the history and status say it: "ntfy",
	// "webhook (slack)".
	Name() string
	// Send delivers n and returns what the service answered, one line.
	Send(ctx context.Context, n Note) (string, error)
	// Answers reports whether the service carries a note's choices and
	// updates a note by its Seq.
	Answers() bool
}

// Listener is a Service the phone answers through: it follows the reply
// topic and hands each message's text to fn until ctx ends.
type Listener interface {
	Replies(ctx context.Context, fn func(body string)) error
}

// NewService builds the service p names, with the access token found for
// it (token_env or the keychain; "" for none).
func NewService(p config.Phone, token string) (Service, error) {
	hc := &http.Client{Timeout: 20 * time.Second}
	switch p.Service {
	case config.PhoneNtfy:
		return &ntfyService{c: &ntfy.Client{Server: p.URL, Token: token, HTTP: hc}, topic: p.Topic, reply: p.ReplyTopic()}, nil
	case config.PhoneWebhook:
		return &webhook{url: p.URL, shape: p.Shape, token: token, hc: hc}, nil
	}
	return nil, fmt.Errorf("[phone] service %q is not one Build Station forwards to; use \"ntfy\" or \"webhook\"", p.Service)
}

// ntfyService publishes notes to a topic and reads replies from another.
type ntfyService struct {
	c     *ntfy.Client
	topic string
	reply string
}

func (s *ntfyService) Name() string  { return config.PhoneNtfy }
func (s *ntfyService) Answers() bool { return true }

func (s *ntfyService) Send(ctx context.Context, n Note) (string, error) {
	m := ntfy.Message{Topic: s.topic, Title: n.Title, Message: n.Text, Priority: n.Priority, Tags: n.Tags, Click: n.Click, SequenceID: n.Seq}
	for _, c := range n.Choices {
		// The phone posts the reply to the reply topic itself, with no
		// token: the topic needs write access for everyone (ntfy's
		// "write-only"), and the key in the reply is what counts.
		m.Actions = append(m.Actions, ntfy.Action{Action: "http", Label: c.Label, URL: s.c.Server + "/" + s.reply,
			Method: http.MethodPost, Body: c.Reply.Body(), Clear: true})
	}
	got, err := s.c.Publish(ctx, m)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("ntfy took message %s on topic %s", got.ID, got.Topic), nil
}

func (s *ntfyService) Replies(ctx context.Context, fn func(string)) error {
	last := ""
	err := s.c.Subscribe(ctx, s.reply, last, func(m ntfy.Message) { fn(m.Message) })
	return err
}
