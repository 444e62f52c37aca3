package evidence

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/platform/pty"
	"github.com/buildstation/buildstation/supervisor"
)

// A silent build on Windows as the station runs it: the agent (cmd.exe)
// runs a child that burns CPU and exits, then waits. The session's Job
// Object counts the exited child; the agent's own time is left out.
func TestCPUJobAccountingRealTree(t *testing.T) {
	if windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil {
		t.Skip("Wine keeps no Job Object accounting; the Windows workflow runs this")
	}
	p, err := pty.New().Spawn(supervisor.SpawnSpec{Argv: []string{"cmd.exe", "/c",
		`cmd.exe /c "for /l %i in (1,1,3000000) do @rem" & ping -n 90 127.0.0.1 >nul`}})
	if err != nil {
		t.Fatal(err)
	}
	go func() { // a reader, as a session has
		b := make([]byte, 4096)
		for {
			if _, err := p.Read(b); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { _ = p.Stop(0); _ = p.Close() })
	acct, ok := p.(supervisor.TreeAccounter)
	if !ok {
		t.Fatal("a Windows session does not account its tree's CPU")
	}
	c := NewCPU(CPUOptions{Share: 0.01})
	tg := supervisor.ProbeTarget{SessionID: "w1", PID: p.Pid(), TreeCPU: acct.JobCPU}
	if err := c.Observe(tg); err != nil {
		t.Fatal(err)
	}
	since := time.Now()
	var life supervisor.Life
	// A probe every 2 s: the job's CPU shows between probes.
	testwait.Eventually(t, 60*time.Second, func() error {
		time.Sleep(2 * time.Second)
		var alive bool
		if life, alive, err = c.Probe(context.Background(), tg, since); err != nil {
			t.Fatal(err)
		}
		if !alive || !strings.Contains(life.Detail, "CPU") {
			return fmt.Errorf("job total %v: alive=%v %q", acct.JobCPU(), alive, life.Detail)
		}
		return nil
	}, "a child's CPU in the job to show life")
	t.Logf("life: %s (job total %v)", life.Detail, acct.JobCPU())
}
