package main

import (
	"bytes"
	"regexp"
)

// Record is what the reader received, as OUT.json says it.
type Record struct {
	Submissions []string `json:"submissions"` // each message an Enter outside a paste ended
	Pastes      int      `json:"pastes"`      // bracketed pastes that began
	Pending     string   `json:"pending"`     // typed but never submitted
	PromptFile  string   `json:"prompt_file,omitempty"`
	Prompt      string   `json:"prompt"` // the submitted prompt, or the file it points at
}

var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
	// pointerRE is the one-line prompt the station types where a paste
	// cannot arrive whole (supervisor/agent's pointerPrompt).
	pointerRE = regexp.MustCompile(`^Your task is in the file (.+?) \(also named by \$BUILDSTATION_PROMPT_FILE\)`)
)

// parse reads what a terminal delivered: text inside paste markers is one
// message's text, line breaks included; outside them a CR or LF submits.
func parse(in []byte) Record {
	var r Record
	var cur bytes.Buffer
	inPaste := false
	for len(in) > 0 {
		switch {
		case bytes.HasPrefix(in, pasteStart):
			inPaste = true
			r.Pastes++
			in = in[len(pasteStart):]
			continue
		case bytes.HasPrefix(in, pasteEnd):
			inPaste = false
			in = in[len(pasteEnd):]
			continue
		}
		c := in[0]
		in = in[1:]
		switch {
		case (c == '\r' || c == '\n') && inPaste:
			if c == '\r' && len(in) > 0 && in[0] == '\n' {
				in = in[1:]
			}
			cur.WriteByte('\n')
		case c == '\r' || c == '\n':
			if c == '\r' && len(in) > 0 && in[0] == '\n' {
				in = in[1:]
			}
			r.Submissions = append(r.Submissions, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	r.Pending = cur.String()
	return r
}

// pointer is the prompt file a submission names, if it is the one-line form.
func pointer(s string) (string, bool) {
	m := pointerRE.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return m[1], true
}
