package service

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// A stopping station drains for stop_grace before it ends its sessions:
// the service manager must wait longer than that, or it kills the station
// mid-drain (systemd's 90 s default, launchd's 20 s, the SCM's idea of a
// hung service). Each generated definition waits stop_grace and a margin.
func TestServiceManagersWaitOutStopGrace(t *testing.T) {
	for _, grace := range []time.Duration{2 * time.Minute, 10 * time.Minute, 45 * time.Second} {
		t.Run(grace.String(), func(t *testing.T) {
			want := int((grace + StopMargin) / time.Second)
			c := linuxDefault
			c.StopGrace = grace
			unit := string(SystemdUnit(c))
			if got := number(t, unit, `(?m)^TimeoutStopSec=(\d+)s$`); got != want {
				t.Errorf("TimeoutStopSec=%ds, want %ds (stop_grace %s + %s):\n%s", got, want, grace, StopMargin, unit)
			}
			m := macCfg
			m.StopGrace = grace
			plist := string(StationPlist(m))
			if got := number(t, plist, `<key>ExitTimeOut</key>\s*<integer>(\d+)</integer>`); got != want {
				t.Errorf("ExitTimeOut %d, want %d:\n%s", got, want, plist)
			}
			if got := StopWait(grace); got != grace+StopMargin {
				t.Errorf("the Windows service waits %s for its station, want %s", got, grace+StopMargin)
			}
		})
	}
}

func number(t *testing.T, text, pattern string) int {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s in:\n%s", pattern, text)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// Under the Service Control Manager a stop is reported pending with a
// wait hint of the whole wait, and its checkpoint moves on every few
// seconds while the station drains, so the SCM never takes the drain for a
// hung service; it ends when the station does, or when the wait is over.
func TestStopPendingReportsProgressUntilTheStationEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		done := make(chan struct{})
		var got []string
		go func() {
			time.Sleep(95 * time.Second) // the drain
			close(done)
		}()
		ended := stopPending(StopWait(2*time.Minute), done, func(checkpoint uint32, hint time.Duration) {
			got = append(got, fmt.Sprintf("%d/%s", checkpoint, hint))
		})
		if !ended {
			t.Error("the station ended within the wait, stopPending says not")
		}
		if len(got) != 10 || got[0] != "1/2m30s" || got[9] != "10/2m30s" {
			t.Errorf("reports %v, want checkpoints 1…10 every 10 s with the hint 2m30s", got)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		n := 0
		if stopPending(35*time.Second, make(chan struct{}), func(uint32, time.Duration) { n++ }) {
			t.Error("a station that never ends: stopPending says it ended")
		}
		if n != 4 {
			t.Errorf("%d reports in a 35 s wait, want 4 (at 0, 10, 20 and 30 s)", n)
		}
	})
}

// service stop waits while the station drains, up to stop_grace: it says
// so before it waits, so a quiet terminal is not taken for a hang. The
// logon task asks the station to drain before it ends it, and says that.
func TestServiceStopSaysItDrains(t *testing.T) {
	for _, c := range []struct {
		name string
		inst Installer
		cfg  Config
		want string
	}{
		{"linux", Linux{}, linuxDefault, "up to 2 min (stop_grace)"},
		{"macos", MacOS{}, macCfg, "up to 2 min (stop_grace)"},
		{"windows --system", Windows{}, winSystem, "up to 2 min (stop_grace)"},
		{"windows logon task", Windows{}, winCfg, "asked to drain first: the sessions it would end get up to 2 min (stop_grace)"},
	} {
		p := c.inst.Stop(c.cfg)
		if len(p) == 0 || !strings.Contains(p[0].Describe(), c.want) {
			t.Errorf("%s: service stop's first line %q, want it to say %q", c.name, p[0].Describe(), c.want)
		}
	}
}

// The logon task's stop asks the station to drain after the task is
// disabled (its repetition must not start another station meanwhile) and
// before schtasks /end, with the whole stop wait.
func TestLogonTaskStopAsksTheStationBetweenDisableAndEnd(t *testing.T) {
	f := newFake()
	cfg := winCfg
	cfg.AskStop = func(wait time.Duration) string {
		f.ran = append(f.ran, "ask the station to stop within "+wait.String())
		return "the station stopped"
	}
	var out bytes.Buffer
	if err := (Windows{}).Stop(cfg).Apply(f, false, &out); err != nil {
		t.Fatal(err)
	}
	want := "schtasks.exe /change /tn BuildStation-ada /disable\nask the station to stop within 2m30s\nschtasks.exe /end /tn BuildStation-ada"
	if got := strings.Join(f.ran, "\n"); got != want {
		t.Errorf("service stop ran\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(out.String(), "the station stopped") {
		t.Errorf("service stop did not pass on what the station said:\n%s", out.String())
	}
}
