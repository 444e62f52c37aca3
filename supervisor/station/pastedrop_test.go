package station

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// conptySpawner is the fake spawner as Windows' ConPTY would be: its
// terminal drops bracketed-paste markers.
type conptySpawner struct{ *fakeSpawner }

func (conptySpawner) DropsPastes() bool { return true }

// Through a terminal that drops paste markers (ConPTY), a Claude session
// gets one line that names its prompt file, with no line break that would
// submit part of it, and then one Enter: never the paste, whose each line
// would arrive as a message of its own.
func TestPromptThroughAPasteDropperIsOneLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, opts := claudeProject("web", time.Minute, time.Minute)
		h := startWith(t, func(o *Options) {
			opts(o)
			o.Spawner = conptySpawner{o.Spawner.(*fakeSpawner)}
		}, p)
		task, err := h.st.Tasks.AddTask(h.ctx, supervisor.NewTask{Project: "web", Title: "t", Body: hostileBody()})
		if err != nil {
			t.Fatal(err)
		}
		proc := h.proc()
		s := h.session(task.ID)
		if err := h.st.Agent.AgentHook(h.ctx, s.ID, supervisor.HookEvent{Event: supervisor.HookMCPReady}); err != nil {
			t.Fatal(err)
		}
		advance(promptSettle + enterDelay)
		w := proc.Writes()
		if len(w) != 2 || w[1] != "\r" {
			t.Fatalf("writes %.120q, want one line and one Enter", w)
		}
		if strings.ContainsAny(w[0], "\x1b\r\n") || !strings.HasPrefix(w[0], "Your task is in the file ") || !strings.Contains(w[0], "prompt.md") {
			t.Fatalf("typed %.200q, want the one-line pointer to the prompt file", w[0])
		}
	})
}
