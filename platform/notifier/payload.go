package notifier

import (
	"encoding/xml"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
)

// The payload builders below are pure functions, one per OS, so that every
// one of them is tested on any OS with hostile text (payload_test.go): a
// notice's title and body come from agents (a block reason) and from shared
// boards (a task title), never from the person at this desktop.

// Bounds on what a notice shows; the card keeps the whole text.
const (
	maxTitle = 120
	maxBody  = 400
)

// message is one notice as every OS shows it: plain one-line title, plain
// body, the group that withdraws it, the link a click opens.
type message struct {
	Title string
	Body  string
	Group string // names the notice for withdrawal: one per kind and session/task
	URL   string // what a click opens; "" when there is nothing to open
	// Session is the session the notice names (URL's), "" for none.
	Session string
	// Actions are the buttons of a notice that carries what a session
	// asks: Allow once and Deny, or the question's options and Deny.
	Actions []Action
	// Request is the id of the request the buttons decide (WaitingOn.ID).
	Request string
	// Task is the task a finished notice's buttons (View diff, Merge)
	// act on.
	Task string
}

// Action is one button: ID is what a press decides ("allow", "deny",
// "answer:OPTION"), Label what it says. Key is the decision's key
// (deeplink.DecisionKey), where a button is a link (a Windows toast).
type Action struct {
	ID, Label string
	Key       string
}

// maxActions bounds the buttons: notification servers show few (Windows
// at most 5), and Deny must always be among them.
const maxActions = 4

// askActions are the buttons for what a session asks.
func askActions(w *supervisor.WaitingOn) []Action {
	if w == nil {
		return nil
	}
	if w.Kind != supervisor.AskQuestion {
		return []Action{{ID: "allow", Label: "Allow once"}, {ID: "deny", Label: "Deny"}}
	}
	var out []Action
	for _, o := range w.Options {
		if len(out) == maxActions-1 {
			break
		}
		label := clip(textsafe.Line(o), 40)
		out = append(out, Action{ID: "answer:" + label, Label: label})
	}
	return append(out, Action{ID: "deny", Label: "Deny"})
}

// ParseAction reads a pressed button's ID: the decision ("allow", "deny",
// "answer") and, for an answer, its text; ok is false for anything else
// (the default click, which opens the console). The rule is the link
// handler's (deeplink.ParseDecision): a Windows toast's button carries the
// same ID in its buildstation:// link.
func ParseAction(id string) (verb, answer string, ok bool) {
	return deeplink.ParseDecision(id)
}

// newMessage makes a notice safe to show: escape sequences and control
// characters gone, lengths bounded, the fallbacks filled in.
func newMessage(n supervisor.Notice) message {
	title := textsafe.Line(n.Title)
	if title == "" {
		title = "Build Station: " + string(n.Kind)
	}
	body := strings.TrimSpace(textsafe.Printable(n.Body))
	if n.TaskID != "" && !strings.Contains(body, n.TaskID) {
		body = strings.TrimSpace(body + " (" + textsafe.Line(n.TaskID) + ")")
	}
	m := message{Title: clip(title, maxTitle), Body: clip(body, maxBody), Group: Group(n)}
	if n.SessionID != "" {
		m.URL, m.Session = SessionURL(n.SessionID), n.SessionID
		m.Actions = askActions(n.Ask)
		if n.Ask != nil {
			m.Request = n.Ask.ID
		}
		if n.Kind == supervisor.NoticeFinished && n.Branch != "" && n.TaskID != "" {
			m.Actions, m.Task = landActions, n.TaskID
		}
	}
	return m
}

// landActions are a finished notice's buttons when its work waits on a
// branch: the card's View diff and Merge.
var landActions = []Action{{ID: ActionDiff, Label: "View diff"}, {ID: ActionMerge, Label: "Merge"}}

// The IDs of a finished notice's buttons (Options.Land's verbs, and
// their links' verbs).
const (
	ActionDiff  = deeplink.VerbDiff
	ActionMerge = deeplink.VerbMerge
)

// landing reports whether a pressed button's ID is a finished notice's.
func landing(id string) bool { return id == ActionDiff || id == ActionMerge }

// Group names a notice for withdrawal: the same kind for the same session
// (or task) replaces and withdraws the one before it.
func Group(n supervisor.Notice) string {
	who := n.SessionID
	if who == "" {
		who = n.TaskID
	}
	return "buildstation-" + safeToken(string(n.Kind)) + "-" + safeToken(who)
}

// safeToken keeps letters, digits, '.', '-' and '_': enough for the
// station's ids, and nothing an OS could read as syntax.
func safeToken(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// clip cuts s to at most n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// dbusBody is the body of a freedesktop notification. Servers that
// advertise "body-markup" read it as a subset of HTML (Pango or GMarkup),
// so for them &, < and > are escaped: text only, no tag can open; quotes
// matter only inside a tag and stay as they are. Other servers show the body
// as it is (a title is never markup, per the spec).
func dbusBody(m message, markup bool) string {
	if !markup {
		return m.Body
	}
	return markupEscaper.Replace(m.Body)
}

var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// dbusActions offers a click on the notice (the spec's "default" key),
// which opens what it announces, and the buttons of a request (Allow once,
// Deny, a question's options). A named button opening the console would
// be a duplicate.
func dbusActions(m message) []string {
	if m.URL == "" {
		return []string{}
	}
	out := []string{"default", "Open"}
	for _, a := range m.Actions {
		out = append(out, a.ID, a.Label)
	}
	return out
}

// toastXML is a Windows toast built with encoding/xml, so every field is
// escaped by the encoder: nothing in a title or body can end an element,
// open a CDATA section or add an attribute. A click on the toast opens the
// notice's buildstation:// link; there is no second button doing the same.
func toastXML(m message, icon string) (string, error) {
	type text struct {
		Value string `xml:",chardata"`
	}
	type image struct {
		Placement string `xml:"placement,attr"`
		Src       string `xml:"src,attr"`
	}
	type binding struct {
		Template string `xml:"template,attr"`
		Image    *image `xml:"image,omitempty"`
		Text     []text `xml:"text"`
	}
	type audio struct {
		Src string `xml:"src,attr"`
	}
	type action struct {
		Content        string `xml:"content,attr"`
		Arguments      string `xml:"arguments,attr"`
		ActivationType string `xml:"activationType,attr"`
	}
	type actions struct {
		Action []action `xml:"action"`
	}
	type toast struct {
		XMLName        xml.Name `xml:"toast"`
		ActivationType string   `xml:"activationType,attr,omitempty"`
		Launch         string   `xml:"launch,attr,omitempty"`
		Binding        binding  `xml:"visual>binding"`
		Actions        *actions `xml:"actions,omitempty"`
		Audio          audio    `xml:"audio"`
	}
	t := toast{
		Binding: binding{Template: "ToastGeneric", Text: []text{{m.Title}}},
		Audio:   audio{Src: "ms-winsoundevent:Notification.Default"},
	}
	if m.Body != "" {
		t.Binding.Text = append(t.Binding.Text, text{m.Body})
	}
	if icon != "" {
		t.Binding.Image = &image{Placement: "appLogoOverride", Src: icon}
	}
	if m.URL != "" {
		t.ActivationType, t.Launch = "protocol", m.URL
		// A button is a link too: buildstation://session/ID?do=ACTION&key=K,
		// which "buildstation open" decides when K is its station's key.
		// A button without a key would decide nothing: it is left out.
		// View diff decides nothing: its link only names the task.
		for _, a := range m.Actions {
			link, ok := actionLink(m, a)
			if !ok {
				continue
			}
			if t.Actions == nil {
				t.Actions = &actions{}
			}
			t.Actions.Action = append(t.Actions.Action, action{Content: a.Label, Arguments: link, ActivationType: "protocol"})
		}
	}
	b, err := xml.Marshal(t)
	if err != nil {
		return "", fmt.Errorf("build the toast's XML: %w", err)
	}
	return string(b), nil
}

// actionLink is the buildstation:// link of m's button a, as the link
// handler (deeplink.ParseLink) reads it back: a decision with its key
// (none: no link, ok false), View diff with its task alone.
func actionLink(m message, a Action) (string, bool) {
	l := deeplink.Link{SessionID: m.Session, Request: m.Request, Key: a.Key}
	switch {
	case m.Session == "":
		return "", false
	case a.ID == ActionDiff && m.Task != "":
		l = deeplink.Link{SessionID: m.Session, Verb: deeplink.VerbDiff, Task: m.Task}
		return l.String(), true
	case a.ID == ActionMerge && m.Task != "":
		l.Verb, l.Task = deeplink.VerbMerge, m.Task
	default:
		var ok bool
		if l.Verb, l.Answer, ok = deeplink.ParseDecision(a.ID); !ok {
			return "", false
		}
	}
	if a.Key == "" {
		return "", false
	}
	return l.String(), true
}

// terminalNotifierArgs is the argv of terminal-notifier for one notice:
// each value its own argument, so no shell reads any of it. A click opens
// the buildstation:// link, which the app bundle's URL scheme hands to
// "buildstation open"; -execute (a shell command line) is never used. A
// text starting with '-' is prefixed with a space so it cannot be read as
// an option.
func terminalNotifierArgs(m message, appName, icon string) []string {
	v := func(s string) string {
		if strings.HasPrefix(s, "-") {
			return " " + s
		}
		return s
	}
	args := []string{"-title", v(appName), "-subtitle", v(m.Title), "-message", v(nonEmpty(m.Body)), "-group", m.Group}
	if m.URL != "" {
		args = append(args, "-open", m.URL)
	}
	if icon != "" {
		args = append(args, "-appIcon", icon)
	}
	return args
}

// nonEmpty: terminal-notifier reads an empty -message as "read stdin".
func nonEmpty(s string) string {
	if s == "" {
		return " "
	}
	return s
}

// terminalNotifierVersion reads the version from the first line of
// "terminal-notifier -help": "terminal-notifier (2.0.0) is a command-line
// tool…".
func terminalNotifierVersion(help string) (v [3]int, ok bool) {
	open := strings.IndexByte(help, '(')
	end := strings.IndexByte(help, ')')
	if open < 0 || end < open {
		return v, false
	}
	parts := strings.Split(help[open+1:end], ".")
	if len(parts) < 2 || len(parts) > 3 {
		return v, false
	}
	for i, p := range parts {
		if _, err := fmt.Sscanf(p, "%d", &v[i]); err != nil {
			return v, false
		}
	}
	return v, true
}

// clicksWork says whether a terminal-notifier of version v runs its click
// action on current macOS: 2.0.0 and earlier do nothing on a click on
// Ventura and later (julienXX/terminal-notifier#306, #315); 3.0.0 fixed it.
func clicksWork(v [3]int) bool { return v[0] >= 3 }

// linkHandlerCommand is the Windows command line a buildstation:// link
// runs: the program quoted, then "open" and the link. A '%' in the path
// would be expanded by the shell (%1, %*) and a '"' would end the quoting;
// no quoting prevents either, so such a path is refused.
func linkHandlerCommand(self string) (string, error) {
	if strings.ContainsAny(self, `%"`) {
		return "", fmt.Errorf("the program path %s contains %% or \", which the buildstation:// link handler cannot carry; move the program to another folder", self)
	}
	return `"` + self + `" open "%1"`, nil
}

// toastTag names a notice's Windows toast within our group: Windows keeps
// at most 64 characters of a tag.
func toastTag(n supervisor.Notice) string { return clip(Group(n), 64) }
