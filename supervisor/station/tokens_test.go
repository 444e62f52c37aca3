package station

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// memKeeper is an outbox that keeps session tokens, in memory.
type memKeeper struct {
	memOutbox
	tmu    sync.Mutex
	tokens map[string]string
}

func (k *memKeeper) KeepToken(_ context.Context, id, token string) error {
	k.tmu.Lock()
	defer k.tmu.Unlock()
	k.tokens[id] = token
	return nil
}

func (k *memKeeper) Token(_ context.Context, id string) (string, bool) {
	k.tmu.Lock()
	defer k.tmu.Unlock()
	tok, ok := k.tokens[id]
	return tok, ok
}

func (k *memKeeper) ForgetToken(_ context.Context, id string) error {
	k.tmu.Lock()
	defer k.tmu.Unlock()
	delete(k.tokens, id)
	return nil
}

// A session's token is kept on this machine while it runs and forgotten
// when it ends: no ended session's token stays in the outbox file.
func TestEndedSessionTokenForgotten(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, box := newSharedMem("A"), &memKeeper{tokens: map[string]string{}}
		h := startFenced(t, b, box)
		task := h.add("web", "a")
		h.proc()
		id := h.session(task.ID).ID
		if _, ok := box.Token(h.ctx, id); !ok {
			t.Fatal("a running session's token is not kept")
		}
		if err := h.st.Agent.AgentComplete(h.ctx, id, "did it"); err != nil {
			t.Fatal(err)
		}
		advance(2 * time.Second)
		if got := h.task(task.ID); got.State != supervisor.TaskDone {
			t.Fatalf("task %s, want done", got.State)
		}
		if _, ok := box.Token(h.ctx, id); ok {
			t.Error("an ended session's token is still kept")
		}
	})
}
