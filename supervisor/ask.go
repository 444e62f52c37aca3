package supervisor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/buildstation/buildstation/internal/textsafe"
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

// MaxAskInput bounds what a request asks, in bytes once its whitespace
// is collapsed: the station shows a person every request whole before
// they may allow it, and one larger than a page cannot be read whole in a
// card, a terminal or a notice. A request past it is refused
// (CheckAskRequest); its agent asks in its own dialog instead.
const MaxAskInput = 8 << 10

// Smaller bounds of a request: its tool's name, its options and each
// option's label (a button).
const (
	maxAskTool    = 200
	maxAskOptions = 16
	maxAskOption  = 300
)

// maxActivityDetail bounds a tool call's detail in a session's activity,
// which is one line no person decides on.
const maxActivityDetail = 300

// AskText is s as a request shows it: on one line, every run of
// whitespace (line breaks and tabs included) one space, every other
// control character and escape sequence gone. Nothing else is cut: what
// a person reads is all of what runs, and a tail cannot hide behind 300
// spaces or a "clear the screen".
func AskText(s string) string {
	return strings.Join(strings.Fields(textsafe.Line(s)), " ")
}

// CheckAskRequest is r as the station keeps it (AskText on every field),
// or a one-sentence error when it is not a request a person can read
// whole: an agent may post to the API without the hook.
func CheckAskRequest(r AskRequest) (AskRequest, error) {
	r.Tool, r.Input = AskText(r.Tool), AskText(r.Input)
	switch {
	case r.Tool == "":
		return r, Invalidf("a request needs the tool it is for")
	case len(r.Tool) > maxAskTool:
		return r, Invalidf("a request's tool name is %d bytes, more than %d; name the tool", len(r.Tool), maxAskTool)
	case len(r.Input) > MaxAskInput:
		return r, Invalidf("%s", AskTooLarge(len(r.Input)))
	case len(r.Options) > maxAskOptions:
		return r, Invalidf("a question offers %d options, more than %d; offer fewer", len(r.Options), maxAskOptions)
	}
	opts := make([]string, 0, len(r.Options))
	for _, o := range r.Options {
		o = AskText(o)
		if len(o) > maxAskOption {
			return r, Invalidf("an option of the question is %d bytes, more than %d; keep each short", len(o), maxAskOption)
		}
		opts = append(opts, o)
	}
	if len(opts) == 0 {
		opts = nil
	}
	r.Options = opts
	return r, nil
}

// AskTooLarge is the sentence for a request of n bytes past MaxAskInput.
func AskTooLarge(n int) string {
	return fmt.Sprintf("the request is %d bytes, too large to show a person whole (at most %d), so it cannot be allowed as shown; the agent asks in its own dialog instead", n, MaxAskInput)
}

// DescribeTool reduces a tool call to what a person decides on: the
// command for Bash, the file for an edit, the question and its options for
// AskUserQuestion; other tools show their input as compact JSON. Nothing
// is clipped (AskText): a request past MaxAskInput is not asked at all.
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
		r.Kind, r.Input = AskQuestion, AskText(q.Question)
		for _, o := range q.Options {
			r.Options = append(r.Options, AskText(o.Label))
		}
		return r
	}
	for _, v := range []string{in.Command, in.FilePath, in.Notebook, in.URL, in.Path, in.Pattern, in.Query} {
		if v != "" {
			r.Input = AskText(v)
			return r
		}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, input); err == nil && compact.Len() > 2 {
		r.Input = AskText(compact.String())
	}
	return r
}

// ActivityDetail is a tool call's detail clipped for a session's
// activity line, marked "…" where it is cut. Never for what a person
// decides on: that is shown whole.
func ActivityDetail(s string) string {
	s = AskText(s)
	if len(s) <= maxActivityDetail {
		return s
	}
	cut := maxActivityDetail
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
