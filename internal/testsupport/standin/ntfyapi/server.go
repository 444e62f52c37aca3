package ntfyapi

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Action is a notification's button, in ntfy's JSON form.
type Action struct {
	Action  string            `json:"action"`
	Label   string            `json:"label"`
	URL     string            `json:"url"`
	Method  string            `json:"method,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
	Clear   bool              `json:"clear,omitempty"`
}

// Message is a cached message in ntfy's JSON message format.
type Message struct {
	ID         string   `json:"id"`
	Time       int64    `json:"time"`
	Expires    int64    `json:"expires,omitempty"`
	Event      string   `json:"event"`
	Topic      string   `json:"topic"`
	Message    string   `json:"message,omitempty"`
	Title      string   `json:"title,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Priority   int      `json:"priority,omitempty"`
	Click      string   `json:"click,omitempty"`
	Actions    []Action `json:"actions,omitempty"`
	SequenceID string   `json:"sequence_id,omitempty"`
}

// Server is the stand-in. Tests use its methods; its fields are guarded.
type Server struct {
	*httptest.Server
	// Token, when set, is the only access token it accepts; a topic in
	// AnonWrite may be published to without one (ntfy's write-only
	// access for everyone).
	Token     string
	AnonWrite []string

	mu       sync.Mutex
	messages []Message
	subs     map[chan Message]string // live streams and their topic
	fail     int                     // publishes still to refuse
	failCode int
	seq      int
}

var topicRe = regexp.MustCompile(`^[-_A-Za-z0-9]{1,64}$`)

// New starts a stand-in on loopback; it is closed when the test ends.
func New(tb interface {
	Cleanup(func())
}) *Server {
	s := &Server{subs: map[chan Message]string{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.Close)
	return s
}

// Close ends the live streams first, then the server.
func (s *Server) Close() {
	s.mu.Lock()
	for c := range s.subs {
		close(c)
		delete(s.subs, c)
	}
	s.mu.Unlock()
	s.Server.Close()
}

// Fail makes the next n publishes answer status.
func (s *Server) Fail(n, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail, s.failCode = n, status
}

// Messages are the messages published to topic, in order.
func (s *Server) Messages(topic string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages {
		if m.Topic == topic {
			out = append(out, m)
		}
	}
	return out
}

// Notifications are what a phone subscribed to topic shows: one per
// sequence (a message's sequence id, or its own id), the latest of each.
func (s *Server) Notifications(topic string) []Message {
	var out []Message
	idx := map[string]int{}
	for _, m := range s.Messages(topic) {
		seq := m.SequenceID
		if seq == "" {
			seq = m.ID
		}
		if i, ok := idx[seq]; ok {
			out[i] = m
			continue
		}
		idx[seq] = len(out)
		out = append(out, m)
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case (r.Method == http.MethodPost || r.Method == http.MethodPut) && r.URL.Path == "/":
		s.publishJSON(w, r)
	case r.Method == http.MethodGet && len(parts) == 2 && parts[1] == "json" && topicRe.MatchString(parts[0]):
		s.subscribe(w, r, parts[0])
	case (r.Method == http.MethodPost || r.Method == http.MethodPut) && (len(parts) == 1 || len(parts) == 2) && topicRe.MatchString(parts[0]):
		seq := ""
		if len(parts) == 2 {
			seq = parts[1]
		}
		s.publishBody(w, r, parts[0], seq)
	default:
		writeError(w, http.StatusNotFound, 40401, "page not found")
	}
}

func writeError(w http.ResponseWriter, status, code int, text string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"code":%d,"http":%d,"error":%q,"link":"https://ntfy.sh/docs/publish/"}`+"\n", code, status, text)
}

// authorized checks the bearer token for topic; write says the request
// publishes (AnonWrite topics take those without a token).
func (s *Server) authorized(w http.ResponseWriter, r *http.Request, topic string, write bool) bool {
	if s.Token == "" || (write && slices.Contains(s.AnonWrite, topic)) {
		return true
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		writeError(w, http.StatusForbidden, 40301, "forbidden")
		return false
	}
	if h != "Bearer "+s.Token {
		writeError(w, http.StatusUnauthorized, 40101, "unauthorized")
		return false
	}
	return true
}

func (s *Server) publishJSON(w http.ResponseWriter, r *http.Request) {
	var m Message
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&m); err != nil {
		writeError(w, http.StatusBadRequest, 40024, "invalid request: request body must be message JSON")
		return
	}
	if !topicRe.MatchString(m.Topic) {
		writeError(w, http.StatusBadRequest, 40009, "invalid request: topic invalid")
		return
	}
	if m.SequenceID == "" {
		m.SequenceID = header(r, "X-Sequence-ID", "Sequence-ID", "SID")
	}
	s.publish(w, r, m)
}

func (s *Server) publishBody(w http.ResponseWriter, r *http.Request, topic, seq string) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	m := Message{Topic: topic, Message: string(body), Title: header(r, "X-Title", "Title", "ti", "t"),
		Click: header(r, "X-Click", "Click"), SequenceID: seq}
	if m.SequenceID == "" {
		m.SequenceID = header(r, "X-Sequence-ID", "Sequence-ID", "SID")
	}
	if t := header(r, "X-Tags", "Tags", "Tag", "ta"); t != "" {
		for _, tag := range strings.Split(t, ",") {
			m.Tags = append(m.Tags, strings.TrimSpace(tag))
		}
	}
	if p := header(r, "X-Priority", "Priority", "prio", "p"); p != "" {
		n, ok := priority(p)
		if !ok {
			writeError(w, http.StatusBadRequest, 40007, "invalid request: priority invalid")
			return
		}
		m.Priority = n
	}
	if a := header(r, "X-Actions", "Actions", "Action"); a != "" {
		acts, err := parseActions(a)
		if err != nil {
			writeError(w, http.StatusBadRequest, 40018, "invalid request: actions invalid: "+err.Error())
			return
		}
		m.Actions = acts
	}
	s.publish(w, r, m)
}

func header(r *http.Request, names ...string) string {
	for _, n := range names {
		if v := r.Header.Get(n); v != "" {
			return v
		}
	}
	return ""
}

func priority(p string) (int, bool) {
	switch strings.ToLower(p) {
	case "1", "min":
		return 1, true
	case "2", "low":
		return 2, true
	case "3", "default":
		return 3, true
	case "4", "high":
		return 4, true
	case "5", "max", "urgent":
		return 5, true
	}
	return 0, false
}

// parseActions reads the Actions header: a JSON array, or the short form
// "http, Label, URL, key=value, …; view, …".
func parseActions(h string) ([]Action, error) {
	if strings.HasPrefix(strings.TrimSpace(h), "[") {
		var acts []Action
		return acts, json.Unmarshal([]byte(h), &acts)
	}
	var acts []Action
	for _, one := range strings.Split(h, ";") {
		f := strings.Split(one, ",")
		if len(f) < 3 {
			return nil, fmt.Errorf("%q: want action, label, url", one)
		}
		a := Action{Action: strings.TrimSpace(f[0]), Label: strings.TrimSpace(f[1]), URL: strings.TrimSpace(f[2])}
		for _, kv := range f[3:] {
			k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
			switch {
			case k == "method":
				a.Method = v
			case k == "body":
				a.Body = v
			case k == "clear":
				a.Clear = v == "true"
			case strings.HasPrefix(k, "headers."):
				if a.Headers == nil {
					a.Headers = map[string]string{}
				}
				a.Headers[strings.TrimPrefix(k, "headers.")] = v
			}
		}
		acts = append(acts, a)
	}
	return acts, nil
}

func (s *Server) publish(w http.ResponseWriter, r *http.Request, m Message) {
	if !s.authorized(w, r, m.Topic, true) {
		return
	}
	if m.Priority < 0 || m.Priority > 5 {
		writeError(w, http.StatusBadRequest, 40007, "invalid request: priority invalid")
		return
	}
	if len(m.Actions) > 3 {
		writeError(w, http.StatusBadRequest, 40018, "invalid request: actions invalid: too many actions, only 3 allowed")
		return
	}
	for _, a := range m.Actions {
		if (a.Action != "view" && a.Action != "http" && a.Action != "broadcast") || a.Label == "" {
			writeError(w, http.StatusBadRequest, 40018, "invalid request: actions invalid")
			return
		}
	}
	s.mu.Lock()
	if s.fail > 0 {
		s.fail--
		code := s.failCode
		s.mu.Unlock()
		writeError(w, code, code*100+1, http.StatusText(code))
		return
	}
	s.seq++
	now := time.Now()
	m.ID, m.Time, m.Expires, m.Event = newID(), now.Unix(), now.Add(12*time.Hour).Unix(), "message"
	if m.Message == "" {
		m.Message = "triggered"
	}
	s.messages = append(s.messages, m)
	for c, topic := range s.subs {
		if topic == m.Topic {
			select {
			case c <- m:
			default: // a stream that does not read loses it, as a slow client would
			}
		}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(m)
}

func newID() string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 12)
	rand.Read(b)
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return string(b)
}

// subscribe streams topic as JSON lines: an open event, the cached
// messages since= asks for, then each new one (poll=1: the cached ones,
// then the end).
func (s *Server) subscribe(w http.ResponseWriter, r *http.Request, topic string) {
	if !s.authorized(w, r, topic, false) {
		return
	}
	q := r.URL.Query()
	poll := q.Get("poll") == "1" || q.Get("poll") == "true"
	c := make(chan Message, 64)
	s.mu.Lock()
	backlog := s.since(topic, q.Get("since"), poll)
	if !poll {
		s.subs[c] = topic
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, c)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	enc := json.NewEncoder(w)
	fl, _ := w.(http.Flusher)
	if !poll {
		enc.Encode(Message{ID: newID(), Time: time.Now().Unix(), Event: "open", Topic: topic})
	}
	for _, m := range backlog {
		enc.Encode(m)
	}
	if fl != nil {
		fl.Flush()
	}
	if poll {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case m, ok := <-c:
			if !ok {
				return
			}
			enc.Encode(m)
			if fl != nil {
				fl.Flush()
			}
		}
	}
}

// since is the cached messages of topic that since asks for: "all", a
// message id (those after it), a Unix time; none for "" unless poll.
func (s *Server) since(topic, since string, poll bool) []Message {
	var out []Message
	after := since == "all" || (since == "" && poll)
	t, isTime := strconv.ParseInt(since, 10, 64)
	for _, m := range s.messages {
		if m.Topic != topic {
			continue
		}
		switch {
		case after:
			out = append(out, m)
		case isTime == nil && m.Time >= t:
			out = append(out, m)
		case m.ID == since:
			after = true
		}
	}
	return out
}

// Press does what the ntfy app does when a person taps an "http" action
// of a notification: it sends the action's request and returns the
// answer's status.
func Press(m Message, label string) (int, error) {
	for _, a := range m.Actions {
		if a.Label != label {
			continue
		}
		if a.Action != "http" {
			return 0, fmt.Errorf("action %q is %s, not http", label, a.Action)
		}
		method := a.Method
		if method == "" {
			method = http.MethodPost
		}
		req, err := http.NewRequest(method, a.URL, bytes.NewReader([]byte(a.Body)))
		if err != nil {
			return 0, err
		}
		for k, v := range a.Headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	return 0, fmt.Errorf("the notification has no action %q", label)
}
