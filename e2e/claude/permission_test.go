//go:build linux

package claude

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
)

// A Bash call that needs permission waits for a person: `session ls --json`
// names the tool and the command; a session's own token cannot allow it,
// nor can the station's token used from inside a session; `session allow`
// runs the command, `session deny --note` does not and the model reads the
// note; both decisions are in the task's history with who made them.
func TestClaudePermissionAnsweredFromTheCLI(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{permissionMode: "default", window: "60s"},
		call("Bash", map[string]any{"command": "echo yes > allowed.marker", "description": "Write the allowed marker"}),
		call("Bash", map[string]any{"command": "echo no > denied.marker", "description": "Write the denied marker"}),
		call(completeTask, map[string]any{"summary": "e2e: asked twice"}),
		say("Done."))
	id := r.addTask("web", "asks a person", "Write the markers.")

	sess := r.waitAsk(id, "echo yes > allowed.marker")
	r.refusedFromASession(sess)
	r.Must("session", "allow", id, "--request", sess.WaitingOn.ID)
	r.until("the allowed command run", 60*time.Second, r.api, id, func() bool {
		_, err := os.Stat(filepath.Join(sess.Dir, "allowed.marker"))
		return err == nil
	})

	r.waitAsk(id, "echo no > denied.marker")
	r.Must("session", "deny", id, "--note", "no")
	r.until("the task done", 60*time.Second, r.api, id, func() bool { return r.Task(id).State == "done" })
	if _, err := os.Stat(filepath.Join(sess.Dir, "denied.marker")); err == nil {
		t.Error("the denied command ran")
	}
	denied := false
	for _, q := range mainRequests(r.api) {
		if strings.Contains(q.LastUser, "[tool_result] A person denied this: no") {
			denied = true
		}
	}
	if !denied {
		t.Errorf("the model never read the denial with its note:\n%s", r.api.dump())
	}
	hist := r.Must("task", "show", id, "--json")
	for _, want := range []string{"allowed once Bash: echo yes \u003e allowed.marker", "denied Bash: echo no \u003e denied.marker (note: no)"} {
		if !strings.Contains(hist, want) && !strings.Contains(hist, strings.ReplaceAll(want, ">", `\u003e`)) {
			t.Errorf("the history lacks %q:\n%s", want, hist)
		}
	}
	if !strings.Contains(hist, `"actor": "person"`) && !strings.Contains(hist, `"actor":"person"`) {
		t.Errorf("the history does not say a person decided:\n%s", hist)
	}
}

// waitAsk waits until the task's session asks permission for command.
func (r *rig) waitAsk(id, command string) e2erig.Session {
	r.T.Helper()
	var sess e2erig.Session
	r.until("the session asking for `"+command+"`", 90*time.Second, r.api, id, func() bool {
		var ok bool
		sess, ok = r.SessionOf(id)
		return ok && sess.WaitingOn != nil && sess.WaitingOn.Tool == "Bash" && sess.WaitingOn.Input == command
	})
	if sess.State != "needs-permission" || sess.WaitingOn.Kind != "permission" {
		r.T.Errorf("session %s while asking, want needs-permission with a permission request: %+v", sess.State, sess.WaitingOn)
	}
	return sess
}

// refusedFromASession tries to allow sess's request the ways a session
// could: with its own token (read from its agent's environment), and with
// the station's token from inside it. Both are refused, and the request
// still waits.
func (r *rig) refusedFromASession(sess e2erig.Session) {
	r.T.Helper()
	env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", sess.PID))
	if err != nil {
		r.T.Fatal(err)
	}
	var token string
	for _, kv := range bytes.Split(env, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte("BUILDSTATION_TOKEN=")); ok {
			token = string(v)
		}
	}
	if token == "" {
		r.T.Fatal("no BUILDSTATION_TOKEN in the agent's environment")
	}
	req, _ := http.NewRequest(http.MethodPost, r.Client().BaseURL+"/v1/sessions/"+sess.ID+"/allow", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.T.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		r.T.Errorf("a session's token allowed its own request: %s", resp.Status)
	}
	stdout, stderr, code, err := e2erig.CLI(e2erig.Bin(), append(e2erig.Env(e2erig.Bin(), r.Home), "BUILDSTATION_SESSION_ID="+sess.ID), "session", "allow", sess.ID, "--request", sess.WaitingOn.ID)
	if err != nil || code == 0 {
		r.T.Errorf("allow from inside a session: exit %d, %v: %s%s", code, err, stdout, stderr)
	}
	if s, ok := r.SessionOf(sess.TaskID); !ok || s.WaitingOn == nil {
		r.T.Errorf("the request stopped waiting after the refused decisions: %+v", s)
	}
}
