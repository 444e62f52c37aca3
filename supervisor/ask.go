package supervisor

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"
)

// The kinds of WaitingOn.
const (
	AskPermission = "permission" // a tool call waits for Allow or Deny
	AskQuestion   = "question"   // the agent asks the person a question
)

// WaitingOn is what a session's agent asks a person, as `session ls --json`
// shows it: the tool and its input in one line (the command, the file, the
// question) and, for a question, the options offered.
type WaitingOn struct {
	// ID names this one request: every ask gets a new one, so a decision
	// made on what a person was shown (Decision.Request) cannot land on a
	// request the agent put in its place since.
	ID      string    `json:"id"`
	Kind    string    `json:"kind"`
	Tool    string    `json:"tool"`
	Input   string    `json:"input"`
	Options []string  `json:"options,omitempty"`
	Since   time.Time `json:"since"`
}

// Line is the request as a person reads it: "Bash: npm publish".
func (w WaitingOn) Line() string {
	if w.Kind == AskQuestion {
		if len(w.Options) > 0 {
			return w.Input + " (" + strings.Join(w.Options, " / ") + ")"
		}
		return w.Input
	}
	if w.Input == "" {
		return w.Tool
	}
	return w.Tool + ": " + w.Input
}

// AskRequest is what an agent's PermissionRequest hook asks the station:
// the tool and its input already reduced to a line (DescribeTool).
type AskRequest struct {
	Kind    string   `json:"kind"`
	Tool    string   `json:"tool"`
	Input   string   `json:"input"`
	Options []string `json:"options,omitempty"`
}

// The behaviors of a Decision.
const (
	DecideAllow = "allow"
	DecideDeny  = "deny"
)

// Decision is a person's answer to an AskRequest. An empty Behavior means
// nobody answered in time: the agent shows its own dialog.
type Decision struct {
	Behavior string `json:"behavior,omitempty"`
	Note     string `json:"note,omitempty"`
	// Answer is the chosen answer to a question (Behavior is allow).
	Answer string `json:"answer,omitempty"`
	// By is who decided ("person"), for the history.
	By string `json:"by,omitempty"`
	// Request is the id of the request decided (WaitingOn.ID). A person's
	// allow or answer must name it; a deny may leave it out.
	Request string `json:"request,omitempty"`
	// Via is where a person decided when it was not at this machine
	// ("the phone (ntfy)"), for the history. Only the station's own
	// parts set it (the phone's replies); no API request carries it.
	Via string `json:"-"`
}

// RequestChanged starts every refusal of a decision made on a
// request that is no longer the one waiting.
const RequestChanged = "the request changed; look again"

// maxAskLine bounds the line a request shows: a notice and a card have
// room for one line, and a Write's content is not what a person decides on.
const maxAskLine = 300

// DescribeTool reduces a tool call to what a person decides on: the
// command for Bash, the file for an edit, the question and its options for
// AskUserQuestion; other tools show their input as compact JSON, clipped.
func DescribeTool(tool string, input json.RawMessage) AskRequest {
	var in struct {
		Command   string `json:"command"`
		FilePath  string `json:"file_path"`
		Notebook  string `json:"notebook_path"`
		Path      string `json:"path"`
		URL       string `json:"url"`
		Pattern   string `json:"pattern"`
		Query     string `json:"query"`
		Questions []struct {
			Question string `json:"question"`
			Options  []struct {
				Label string `json:"label"`
			} `json:"options"`
		} `json:"questions"`
	}
	_ = json.Unmarshal(input, &in) // an input of another shape shows as JSON below
	r := AskRequest{Kind: AskPermission, Tool: tool}
	if tool == "AskUserQuestion" && len(in.Questions) > 0 {
		q := in.Questions[0]
		r.Kind, r.Input = AskQuestion, clipLine(q.Question)
		for _, o := range q.Options {
			r.Options = append(r.Options, clipLine(o.Label))
		}
		return r
	}
	for _, v := range []string{in.Command, in.FilePath, in.Notebook, in.URL, in.Path, in.Pattern, in.Query} {
		if v != "" {
			r.Input = clipLine(v)
			return r
		}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, input); err == nil && compact.Len() > 2 {
		r.Input = clipLine(compact.String())
	}
	return r
}

// clipLine is s on one line, at most maxAskLine bytes: line breaks and
// other control characters read as spaces.
func clipLine(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }), " ")
	if len(s) <= maxAskLine {
		return s
	}
	cut := maxAskLine
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
