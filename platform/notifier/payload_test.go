package notifier

import (
	"encoding/xml"
	"slices"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/supervisor"
)

// hostile is text an agent or a shared board could put in a notice: a
// CDATA end with a PowerShell subexpression, markup, an OSC 52 clipboard
// write, a title change, a carriage return that submits a line, an option.
var hostile = []string{
	"]]>$(calc)",
	`<script>alert(1)</script> & "quotes" 'single'`,
	"\x1b]52;c;ZWNobyBwd25lZA==\a",
	"\x1b]0;pwned\x1b\\ \x1b[2J",
	"line\r!touch /tmp/x\r",
	"-execute rm -rf ~",
	"@\"\n$(Remove-Item C:\\)\n\"@",
	"%1 %* $HOME `id` ünïcödé ✓",
}

func hostileNotice(s string) supervisor.Notice {
	return supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: "t3", SessionID: "t3.1", Title: "Blocked: " + s, Body: "reason: " + s}
}

// shown is what a person may see of s: no control or escape character.
func checkPlain(t *testing.T, what, got string) {
	t.Helper()
	for _, r := range got {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Errorf("%s %q keeps control character %U", what, got, r)
		}
	}
}

func TestMessageIsPlainText(t *testing.T) {
	for _, s := range hostile {
		m := newMessage(hostileNotice(s))
		checkPlain(t, "title", m.Title)
		checkPlain(t, "body", m.Body)
		if strings.Contains(m.Title, "\n") {
			t.Errorf("title %q has a line break", m.Title)
		}
		if strings.Contains(m.Body, "52;c;") || strings.Contains(m.Body, "pwned") {
			t.Errorf("body %q keeps an escape sequence's payload", m.Body)
		}
	}
	long := newMessage(supervisor.Notice{Title: strings.Repeat("t", 500), Body: strings.Repeat("b", 5000)})
	if n := len([]rune(long.Title)); n > maxTitle {
		t.Errorf("title has %d runes", n)
	}
	if n := len([]rune(long.Body)); n > maxBody {
		t.Errorf("body has %d runes", n)
	}
}

// The toast's XML parses, has exactly the elements and attributes we put
// there, and its texts read back as the plain message: nothing a title or
// body holds becomes markup.
func TestToastXMLEscapesEveryField(t *testing.T) {
	for _, s := range hostile {
		m := newMessage(hostileNotice(s))
		doc, err := toastXML(m, `C:\Users\a&b\icon "x".png`)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			XMLName        xml.Name
			ActivationType string     `xml:"activationType,attr"`
			Launch         string     `xml:"launch,attr"`
			Attrs          []xml.Attr `xml:",any,attr"`
			Binding        struct {
				Image struct {
					Src string `xml:"src,attr"`
				} `xml:"image"`
				Text []string   `xml:"text"`
				Any  []xml.Name `xml:",any"`
			} `xml:"visual>binding"`
			Actions *struct{} `xml:"actions"`
		}
		if err := xml.Unmarshal([]byte(doc), &got); err != nil {
			t.Fatalf("toast XML for %q does not parse: %v\n%s", s, err, doc)
		}
		if !slices.Equal(got.Binding.Text, []string{m.Title, m.Body}) {
			t.Errorf("toast texts %q, want %q\n%s", got.Binding.Text, []string{m.Title, m.Body}, doc)
		}
		if got.Launch != "buildstation://session/t3.1" || got.ActivationType != "protocol" {
			t.Errorf("toast launches %q (%q)", got.Launch, got.ActivationType)
		}
		if got.Binding.Image.Src != `C:\Users\a&b\icon "x".png` {
			t.Errorf("icon %q", got.Binding.Image.Src)
		}
		if len(got.Attrs) != 0 || got.Actions != nil {
			t.Errorf("toast has extra attributes %v or a button: one action per notice\n%s", got.Attrs, doc)
		}
		if strings.Contains(doc, "CDATA") || strings.Contains(doc, "<script") {
			t.Errorf("toast XML carries raw text:\n%s", doc)
		}
	}
}

// A body is escaped for a server that reads markup and left alone for one
// that does not; the title is never markup.
func TestDBusBodyEscapesMarkup(t *testing.T) {
	m := newMessage(hostileNotice(`<b>bold</b> <a href="x">link</a> <img src="/etc/passwd"/> & ]]>`))
	got := dbusBody(m, true)
	want := `reason: &lt;b&gt;bold&lt;/b&gt; &lt;a href="x"&gt;link&lt;/a&gt; &lt;img src="/etc/passwd"/&gt; &amp; ]]&gt; (t3)`
	if got != want {
		t.Errorf("markup body\n got %q\nwant %q", got, want)
	}
	if dbusBody(m, false) != m.Body {
		t.Errorf("plain body %q, want %q", dbusBody(m, false), m.Body)
	}
	if got := dbusBody(message{Body: "two\nlines"}, true); got != "two\nlines" {
		t.Errorf("line break became %q", got)
	}
	for _, s := range hostile {
		b := dbusBody(newMessage(hostileNotice(s)), true)
		checkPlain(t, "dbus body", b)
		if strings.ContainsAny(b, "<>") {
			t.Errorf("dbus body %q keeps markup", b)
		}
	}
	if a := dbusActions(m); !slices.Equal(a, []string{"default", "Open"}) {
		t.Errorf("actions %q: want the one default action", a)
	}
	if a := dbusActions(message{}); len(a) != 0 {
		t.Errorf("a notice with nothing to open has actions %q", a)
	}
}

// terminal-notifier gets each value as its own argument: no shell line
// (-execute) and no value it could read as an option.
func TestTerminalNotifierArgv(t *testing.T) {
	for _, s := range hostile {
		m := newMessage(hostileNotice(s))
		args := terminalNotifierArgs(m, "Build Station", "/tmp/a b/icon.png")
		if slices.Contains(args, "-execute") {
			t.Errorf("argv %q uses -execute, a shell command line", args)
		}
		val := map[string]string{}
		for i := 0; i+1 < len(args); i += 2 {
			if !strings.HasPrefix(args[i], "-") || strings.HasPrefix(args[i+1], "-") {
				t.Fatalf("argv %q is not option/value pairs", args)
			}
			val[args[i]] = args[i+1]
		}
		if strings.TrimPrefix(val["-subtitle"], " ") != m.Title || strings.TrimPrefix(val["-message"], " ") != m.Body {
			t.Errorf("argv %q does not carry the message %+v", args, m)
		}
		if val["-open"] != "buildstation://session/t3.1" || val["-group"] != "buildstation-block-t3.1" || val["-appIcon"] != "/tmp/a b/icon.png" {
			t.Errorf("argv %q", args)
		}
	}
	if args := terminalNotifierArgs(message{Title: "x", Group: "g"}, "A", ""); slices.Contains(args, "-open") || args[5] != " " {
		t.Errorf("argv %q for a notice with nothing to open and no body", args)
	}
}

func TestTerminalNotifierVersion(t *testing.T) {
	for _, tc := range []struct {
		help  string
		v     [3]int
		ok    bool
		click bool
	}{
		{"terminal-notifier (2.0.0) is a command-line tool to send macOS User Notifications.", [3]int{2, 0, 0}, true, false},
		{"terminal-notifier (1.8.0) is a command-line tool", [3]int{1, 8, 0}, true, false},
		{"terminal-notifier (3.0.0) is a command-line tool", [3]int{3, 0, 0}, true, true},
		{"terminal-notifier (3.1) is", [3]int{3, 1, 0}, true, true},
		{"usage: terminal-notifier -message", [3]int{}, false, false},
		{"terminal-notifier (x.y) is", [3]int{}, false, false},
	} {
		v, ok := terminalNotifierVersion(tc.help)
		if ok != tc.ok || ok && (v != tc.v || clicksWork(v) != tc.click) {
			t.Errorf("version of %q = %v %v (clicks %v)", tc.help, v, ok, clicksWork(v))
		}
	}
}

func TestGroupAndURLAreTokens(t *testing.T) {
	n := supervisor.Notice{Kind: supervisor.NoticeNudge, SessionID: "t1.1; rm -rf /", TaskID: "t1"}
	if g := Group(n); g != "buildstation-nudge-t1.1__rm_-rf__" {
		t.Errorf("Group = %q", g)
	}
	if u := SessionURL("a b/../c"); u != "buildstation://session/a%20b%2F..%2Fc" {
		t.Errorf("SessionURL = %q", u)
	}
}

func TestLinkHandlerCommand(t *testing.T) {
	got, err := linkHandlerCommand(`C:\Users\Zoë O'Brien & co\bin\buildstation.exe`)
	if err != nil || got != `"C:\Users\Zoë O'Brien & co\bin\buildstation.exe" open "%1"` {
		t.Errorf("linkHandlerCommand = %q, %v", got, err)
	}
	for _, bad := range []string{`C:\100%1\bs.exe`, `C:\a"b\bs.exe`} {
		if _, err := linkHandlerCommand(bad); err == nil || !strings.Contains(err.Error(), "move the program") {
			t.Errorf("linkHandlerCommand(%q) = %v, want a refusal that says what to do", bad, err)
		}
	}
}

func TestToastTagFitsWindows(t *testing.T) {
	n := supervisor.Notice{Kind: supervisor.NoticeNudge, SessionID: strings.Repeat("s", 100)}
	if tag := toastTag(n); len([]rune(tag)) > 64 || !strings.HasPrefix(tag, "buildstation-nudge-s") {
		t.Errorf("toastTag = %q (%d runes)", tag, len([]rune(tag)))
	}
	if toastTag(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: "t1"}) == toastTag(supervisor.Notice{Kind: supervisor.NoticeNudge, TaskID: "t1"}) {
		t.Error("a block and a nudge of one task share a toast tag")
	}
}

// testKey is a LinkKey for a station whose token is "tok".
func testKey(l deeplink.Link) string { return deeplink.DecisionKey("tok", l) }

// A Windows toast for what a session asks has its buttons, each a
// buildstation:// link that names the decision and carries its key;
// "buildstation open" reads it back (ParseAction). Without a key (no
// station token to make one) the buttons are left out: a link without
// one decides nothing.
func TestToastButtonsAreLinks(t *testing.T) {
	n := supervisor.Notice{Kind: supervisor.NoticePermission, TaskID: "t7", SessionID: "t7.1", Title: "t7 asks",
		Ask: &supervisor.WaitingOn{Kind: supervisor.AskQuestion, Tool: "AskUserQuestion", Input: "Which?", Options: []string{"red & <b>", "blue"}}}
	m := newMessage(n)
	keyActions(&m, n.SessionID, testKey)
	x, err := toastXML(m, "")
	if err != nil {
		t.Fatal(err)
	}
	key := func(verb, answer string) string {
		return testKey(deeplink.Link{SessionID: "t7.1", Verb: verb, Answer: answer})
	}
	want := `<actions><action content="red &amp; &lt;b&gt;" arguments="buildstation://session/t7.1?do=answer%3Ared+%26+%3Cb%3E&amp;key=` + key("answer", "red & <b>") + `" activationType="protocol"></action>` +
		`<action content="blue" arguments="buildstation://session/t7.1?do=answer%3Ablue&amp;key=` + key("answer", "blue") + `" activationType="protocol"></action>` +
		`<action content="Deny" arguments="buildstation://session/t7.1?do=deny&amp;key=` + key("deny", "") + `" activationType="protocol"></action></actions>`
	if !strings.Contains(x, want) {
		t.Errorf("toast\n%s\nlacks\n%s", x, want)
	}
	m = newMessage(n)
	keyActions(&m, n.SessionID, nil)
	if x, _ := toastXML(m, ""); strings.Contains(x, "<actions>") {
		t.Errorf("a toast without keys has buttons:\n%s", x)
	}
	for id, want := range map[string]string{"allow": "allow ", "deny": "deny ", "answer:red & <b>": "answer red & <b>", "default": "", "answer:": ""} {
		verb, answer, ok := ParseAction(id)
		got := ""
		if ok {
			got = verb + " " + answer
		}
		if got != want {
			t.Errorf("ParseAction(%q) = %q, want %q", id, got, want)
		}
	}
}

// A permission notice's toast has Allow once and Deny, each a protocol
// link that the link handler ("buildstation open", deeplink.ParseLink)
// reads back as that decision for that session: what a press on Windows
// hands to the station. A click elsewhere on the toast only opens.
func TestToastButtonsDecideThroughTheLinkHandler(t *testing.T) {
	for _, ask := range []*supervisor.WaitingOn{
		{Kind: supervisor.AskPermission, Tool: "Bash", Input: "rm -rf node_modules"},
		{Kind: supervisor.AskQuestion, Tool: "AskUserQuestion", Input: "Which?", Options: []string{"red & <b>", "blue?do=allow", "x\x1b]0;t\a"}},
	} {
		n := supervisor.Notice{Kind: supervisor.NoticePermission, TaskID: "t7", SessionID: "t7.1", Title: "t7 asks", Ask: ask}
		m := newMessage(n)
		keyActions(&m, n.SessionID, testKey)
		got, doc := readToast(t, m)
		if l, ok := deeplink.ParseLink(got.Launch); !ok || l != (deeplink.Link{SessionID: "t7.1"}) {
			t.Errorf("the toast's click %q reads %+v %v, want to open t7.1 and decide nothing", got.Launch, l, ok)
		}
		want := askActions(ask)
		if len(got.Actions) != len(want) {
			t.Fatalf("toast buttons %+v, want %+v\n%s", got.Actions, want, doc)
		}
		for i, a := range got.Actions {
			verb, answer, _ := ParseAction(want[i].ID)
			l, ok := deeplink.ParseLink(a.Arguments)
			wl := deeplink.Link{SessionID: "t7.1", Verb: verb, Answer: answer}
			wl.Key = testKey(wl)
			if !ok || a.ActivationType != "protocol" || a.Content != want[i].Label || l != wl || !l.KeyHolds("tok") || l.KeyHolds("another station's token") {
				t.Errorf("button %q links %q (%s), read as %+v %v; want %s %q for t7.1", a.Content, a.Arguments, a.ActivationType, l, ok, verb, answer)
			}
		}
		if ask.Kind == supervisor.AskPermission && (got.Actions[0].Content != "Allow once" || got.Actions[1].Content != "Deny") {
			t.Errorf("permission buttons %+v, want Allow once and Deny", got.Actions)
		}
	}
}

// A finished notice's toast has View diff and Merge, each a protocol
// link the link handler reads back: View diff opens the task's diff
// window and carries no key (it decides nothing), Merge is a decision on
// that task with the key of the station's token, so a link made by
// anyone else merges nothing. Without a key Merge is left out, View diff
// stays.
func TestToastFinishedButtons(t *testing.T) {
	n := supervisor.Notice{Kind: supervisor.NoticeFinished, TaskID: "t3", SessionID: "t3.1", Branch: "bs/x/t3",
		Title: "Finished: fix <the> build", Body: "ready to merge"}
	for _, key := range []func(deeplink.Link) string{testKey, nil} {
		m := newMessage(n)
		keyActions(&m, n.SessionID, key)
		got, doc := readToast(t, m)
		diff := deeplink.Link{SessionID: "t3.1", Verb: deeplink.VerbDiff, Task: "t3"}
		merge := deeplink.Link{SessionID: "t3.1", Verb: deeplink.VerbMerge, Task: "t3"}
		merge.Key = deeplink.DecisionKey("tok", merge)
		want := []deeplink.Link{diff, merge}
		if key == nil {
			want = want[:1]
		}
		if len(got.Actions) != len(want) {
			t.Fatalf("key %v: toast buttons %+v, want %v\n%s", key != nil, got.Actions, want, doc)
		}
		for i, a := range got.Actions {
			l, ok := deeplink.ParseLink(a.Arguments)
			if !ok || l != want[i] || a.ActivationType != "protocol" || a.Content != []string{"View diff", "Merge"}[i] {
				t.Errorf("button %q links %q (%s), read as %+v %v; want %v", a.Content, a.Arguments, a.ActivationType, l, ok, want[i])
			}
			_, decide, _ := deeplink.OpenArgs([]string{a.Arguments})
			if decide != (l.Verb == deeplink.VerbMerge) || decide && !l.KeyHolds("tok") {
				t.Errorf("button %q: buildstation open decides %v (key holds %v)", a.Content, decide, l.KeyHolds("tok"))
			}
		}
	}
}

// toast is what the toast tests read back from a toast's XML.
type toast struct {
	Launch  string `xml:"launch,attr"`
	Actions []struct {
		Content        string `xml:"content,attr"`
		Arguments      string `xml:"arguments,attr"`
		ActivationType string `xml:"activationType,attr"`
	} `xml:"actions>action"`
}

// readToast renders m as a toast and reads it back, with its XML for
// failure messages.
func readToast(t *testing.T, m message) (toast, string) {
	t.Helper()
	doc, err := toastXML(m, "")
	if err != nil {
		t.Fatal(err)
	}
	var got toast
	if err := xml.Unmarshal([]byte(doc), &got); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return got, doc
}
