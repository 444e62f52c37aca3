package station

import (
	"bytes"
	"strings"
)

// dialogs are phrases of prompts only a person may answer. An Enter typed
// at any of them answers it: "No, exit" at Claude Code's folder-trust
// dialog, "Yes" at its permission prompt (preselected). Some fire no hook,
// so before typing a nudge the watchdog reads the last screen for them.
var dialogs = []string{
	"Do you want to proceed?",
	"Is this a project you created or one you trust",
	"Do you trust the files in this folder",
	"Do you want to make this edit",
}

// screenTail is how much of the end of the output counts as "the screen".
const screenTail = 4 << 10

// dialogOnScreen returns the dialog phrase shown at the end of out, if any.
func dialogOnScreen(out []byte) (string, bool) {
	if len(out) > screenTail {
		out = out[len(out)-screenTail:]
	}
	text := string(ansiRE().ReplaceAll(out, nil))
	// TUIs position words with cursor moves rather than spaces; compare
	// with every run of blanks squeezed out.
	flat := squeeze(text)
	for _, d := range dialogs {
		if strings.Contains(flat, squeeze(d)) {
			return d, true
		}
	}
	return "", false
}

func squeeze(s string) string {
	var b bytes.Buffer
	for _, f := range strings.Fields(s) {
		b.WriteString(f)
	}
	return b.String()
}
