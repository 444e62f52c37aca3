package source

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// counting is a tracker that counts its polls and fails them with err.
type counting struct {
	Broken
	polls int
	err   error
}

func (c *counting) Poll(context.Context) ([]Item, bool, error) {
	c.polls++
	err := c.err
	c.err = nil // the limit is met once
	return nil, false, err
}

type noStation struct{}

func (noStation) AddTask(context.Context, supervisor.NewTask) (supervisor.Task, error) {
	return supervisor.Task{}, nil
}
func (noStation) Subscribe(int) *supervisor.Subscription { return nil }

type noBoard struct{ supervisor.Board }

func (noBoard) Tasks(context.Context, supervisor.TaskFilter) ([]supervisor.Task, error) {
	return nil, nil
}

type noLedger struct{ Ledger }

func (noLedger) Pending(context.Context) ([]Write, error) { return nil, nil }

// A rate limit is the token's on its host (#39 item 6): when one
// repository's poll meets it, the other repository read with the same
// token waits for the reset too; one on another host does not.
func TestRateLimitPerTokenAndHost(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	reset := now.Add(10 * time.Minute)
	web := &counting{err: &APIError{Status: http.StatusForbidden, Limited: true, Reset: reset}}
	api, ghe := &counting{}, &counting{}
	sy := New(Options{
		Sources: []config.Source{
			{Kind: "github", Project: "web", Repo: "acme/web", Label: "agent"},
			{Kind: "github", Project: "web", Repo: "acme/api", Label: "agent"},
			{Kind: "github", Project: "web", Repo: "corp/app", Label: "agent", APIURL: "https://ghe.example.com/api/v3"},
		},
		Trackers: []Tracker{web, api, ghe}, Station: noStation{}, Board: noBoard{}, Ledger: noLedger{},
		Now: func() time.Time { return now },
	})
	// The first pass polls all three at once (acme/api perhaps after
	// acme/web met the limit); then nothing more with that token.
	sy.Step(context.Background())
	first := api.polls
	now = now.Add(2 * time.Minute)
	sy.Step(context.Background())
	if api.polls != first {
		t.Fatalf("acme/api polled again before the shared token's reset (%d → %d)", first, api.polls)
	}
	if ghe.polls != 2 {
		t.Fatalf("the GHE source polled %d times, want 2: its token and host are its own", ghe.polls)
	}
	if st := sy.State()[1]; !st.Retry.Equal(reset) {
		t.Fatalf("acme/api state %+v, want it waiting for the reset", st)
	}
	now = reset
	sy.Step(context.Background())
	if api.polls != first+1 {
		t.Fatalf("acme/api polled %d times after the reset, want %d", api.polls, first+1)
	}
}

// hanging is a tracker whose polls never answer before their deadline.
type hanging struct{ Broken }

func (hanging) Poll(ctx context.Context) ([]Item, bool, error) {
	<-ctx.Done()
	return nil, false, ctx.Err()
}

type busStation struct {
	noStation
	bus *supervisor.Bus
}

func (b busStation) Subscribe(n int) *supervisor.Subscription { return b.bus.Subscribe(n) }

// Sources are independent (#39 item 6): one whose requests hang does not
// stall another's polls; the hanging one's pass ends at its deadline.
func TestHangingSourceStallsNoOther(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ok := &counting{}
		sy := New(Options{
			Sources: []config.Source{
				{Kind: "github", Project: "web", Repo: "acme/slow", Label: "agent"},
				{Kind: "github", Project: "web", Repo: "acme/web", Label: "agent"},
			},
			Trackers: []Tracker{hanging{}, ok}, Station: busStation{bus: &supervisor.Bus{}}, Board: noBoard{}, Ledger: noLedger{},
			Interval: time.Minute,
		})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { sy.Serve(ctx); close(done) }()
		time.Sleep(5*time.Minute + time.Second)
		synctest.Wait()
		if ok.polls < 5 {
			t.Errorf("the healthy source polled %d times in 5 minutes beside a hanging one, want 5 or more", ok.polls)
		}
		if st := sy.State()[0]; st.OK || !strings.Contains(st.Problem, "did not answer in time") {
			t.Errorf("the hanging source's state: %+v", st)
		}
		cancel()
		<-done
	})
}
