//go:build unix

package noticefollow

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// fakeDesktop stands in for the desktop's notification service (the real
// D-Bus path is tested in platform/notifier).
type fakeDesktop struct {
	mu        sync.Mutex
	shown     []string
	withdrawn []string
}

func (d *fakeDesktop) Notify(n supervisor.Notice) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.shown = append(d.shown, n.Title)
	return nil
}

func (d *fakeDesktop) Withdraw(n supervisor.Notice) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.withdrawn = append(d.withdrawn, n.Title)
	return nil
}

func (d *fakeDesktop) Close() error { return nil }

func (d *fakeDesktop) state() (shown, withdrawn []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.shown...), append([]string(nil), d.withdrawn...)
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	testwait.Eventually(t, 20*time.Second, ok, what)
}

// hookScript writes a shell script that saves its stdin and arguments.
func hookScript(t *testing.T, dir, body string) string {
	t.Helper()
	path := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

type rig struct {
	events chan supervisor.Event
	log    *testwait.Buffer
	desk   *fakeDesktop
	tray   bool
	mu     sync.Mutex
	done   chan struct{}
	cancel context.CancelFunc
}

func start(t *testing.T, hooks config.Hooks) *rig {
	r := &rig{events: make(chan supervisor.Event, 16), log: &testwait.Buffer{}, desk: &fakeDesktop{}, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() {
		defer close(r.done)
		Follow(ctx, r.events, Options{
			Hooks:   func() config.Hooks { return hooks },
			Desktop: func() (Desktop, error) { return r.desk, nil },
			TrayShows: func() bool {
				r.mu.Lock()
				defer r.mu.Unlock()
				return r.tray
			},
			Log: slog.New(slog.NewTextHandler(r.log, nil)),
		})
	}()
	t.Cleanup(func() { cancel(); <-r.done })
	return r
}

func notice(n supervisor.Notice) supervisor.Event {
	return supervisor.Event{Kind: supervisor.EventNotice, Notice: &n}
}

// A hook gets the event as JSON on stdin and its arguments as argv, with
// nothing a shell would expand; the desktop shows the notice and withdraws
// it when the session shows life.
func TestHooksAndDesktop(t *testing.T) {
	dir := t.TempDir()
	script := hookScript(t, dir, `cat > "$1.$BUILDSTATION_EVENT.json"; printf '%s' "$2" > "$1.arg"`)
	out := filepath.Join(dir, "got")
	argv := []string{script, out, "$(touch " + filepath.Join(dir, "pwned") + ") `id`; rm -rf ~"}
	r := start(t, config.Hooks{OnNudge: argv, OnDone: argv, Timeout: 10 * time.Second})
	r.events <- supervisor.Event{Kind: supervisor.EventTask, Task: &supervisor.Task{ID: "t1", Project: "web", Title: "migrate", State: supervisor.TaskWorking}}
	r.events <- notice(supervisor.Notice{Kind: supervisor.NoticeNudge, TaskID: "t1", SessionID: "t1.1", Title: "Nudged: migrate", Body: "silent \x1b]52;c;QUFB\a5m"})
	eventually(t, "the nudge hook wrote its stdin", func() bool { _, err := os.Stat(out + ".nudge.json"); return err == nil })
	eventually(t, "the hook finished", func() bool { return strings.Contains(r.log.String(), "hook ran") })
	var got HookEvent
	b, _ := os.ReadFile(out + ".nudge.json")
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("stdin %q: %v", b, err)
	}
	if got.Event != "nudge" || got.TaskID != "t1" || got.SessionID != "t1.1" || got.Project != "web" ||
		got.Title != "Nudged: migrate" || got.Message != "silent 5m" || got.Task == nil || got.Task.Title != "migrate" || got.At.IsZero() {
		t.Errorf("hook read %s", b)
	}
	if arg, _ := os.ReadFile(out + ".arg"); string(arg) != argv[2] {
		t.Errorf("hook's argument %q, want %q", arg, argv[2])
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("a shell ran the hook's arguments")
	}
	shown, _ := r.desk.state()
	if len(shown) != 1 || shown[0] != "Nudged: migrate" {
		t.Errorf("desktop showed %q", shown)
	}
	r.events <- supervisor.Event{Kind: supervisor.EventSession, Session: &supervisor.SessionInfo{ID: "t1.1", TaskID: "t1", State: supervisor.SessWorking}}
	eventually(t, "the nudge is withdrawn", func() bool { _, w := r.desk.state(); return len(w) == 1 })

	// Done runs on_done once, however often the done task is published.
	done := supervisor.Task{ID: "t1", Project: "web", Title: "migrate", State: supervisor.TaskDone, Summary: "landed abc123"}
	for range 2 {
		r.events <- supervisor.Event{Kind: supervisor.EventTask, Task: &done}
	}
	eventually(t, "the done hook wrote its stdin", func() bool { _, err := os.Stat(out + ".done.json"); return err == nil })
	eventually(t, "the done hook finished", func() bool { return strings.Count(r.log.String(), "hook ran") == 2 })
	b, _ = os.ReadFile(out + ".done.json")
	if err := json.Unmarshal(b, &got); err != nil || got.Event != "done" || got.Message != "landed abc123" {
		t.Errorf("done hook read %s (%v)", b, err)
	}
	r.cancel()
	<-r.done
	if n := strings.Count(r.log.String(), "hook ran"); n != 2 {
		t.Errorf("%d hooks ran, want 2 (a done task published twice runs on_done once)\n%s", n, r.log)
	}
}

// While a tray shows notices the station shows none (no duplicates); hooks
// still run.
func TestNoDesktopNoticeWhileATrayShowsThem(t *testing.T) {
	dir := t.TempDir()
	script := hookScript(t, dir, `cat > "$1"`)
	out := filepath.Join(dir, "block.json")
	r := start(t, config.Hooks{OnBlock: []string{script, out}, Timeout: 10 * time.Second})
	r.mu.Lock()
	r.tray = true
	r.mu.Unlock()
	r.events <- notice(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: "t2", SessionID: "t2.1", Title: "Blocked: x"})
	eventually(t, "the block hook ran", func() bool { _, err := os.Stat(out); return err == nil })
	r.mu.Lock()
	r.tray = false
	r.mu.Unlock()
	r.events <- notice(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: "t3", SessionID: "t3.1", Title: "Blocked: y"})
	eventually(t, "the second block is shown", func() bool { s, _ := r.desk.state(); return len(s) > 0 })
	if s, _ := r.desk.state(); len(s) != 1 || s[0] != "Blocked: y" {
		t.Errorf("desktop showed %q; want only the notice no tray showed", s)
	}
}

// A hook that hangs is killed at its timeout with its children, a failing
// one is logged with its output, and neither holds up the events after it.
func TestHookTimeoutAndFailure(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	hang := hookScript(t, dir, `sleep 300 & echo $! > "`+pidFile+`"; wait`)
	failing := filepath.Join(dir, "fail.sh")
	if err := os.WriteFile(failing, []byte("#!/bin/sh\necho 'cannot reach ntfy.sh' >&2\nexit 3\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	r := start(t, config.Hooks{OnPermission: []string{hang}, OnBlock: []string{failing}, Timeout: 500 * time.Millisecond})
	r.events <- notice(supervisor.Notice{Kind: supervisor.NoticePermission, TaskID: "t4", SessionID: "t4.1", Title: "Needs you"})
	r.events <- notice(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: "t5", SessionID: "t5.1", Title: "Blocked"})
	eventually(t, "the failing hook is logged", func() bool { return strings.Contains(r.log.String(), "hook failed") })
	if l := r.log.String(); !strings.Contains(l, "cannot reach ntfy.sh") || !strings.Contains(l, "exit status 3") {
		t.Errorf("log lacks the hook's output or exit status:\n%s", l)
	}
	eventually(t, "the hanging hook is killed", func() bool { return strings.Contains(r.log.String(), "hook killed after its timeout of 500ms") })
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the hook's child is gone", func() bool { return !alive(strings.TrimSpace(string(b))) })
}

// Every text in a hook's JSON is sanitized, the task's own fields too: no
// escape sequence (ESC ]0; sets a terminal's title, ESC ]52; its
// clipboard) and no line break in a title.
func TestHookTextSanitized(t *testing.T) {
	dir := t.TempDir()
	script := hookScript(t, dir, `cat > "$1.$BUILDSTATION_EVENT.json"`)
	out := filepath.Join(dir, "got")
	r := start(t, config.Hooks{OnDone: []string{script, out}, Timeout: 10 * time.Second})
	done := supervisor.Task{ID: "t1", Project: "web\x1b[2J", Title: "fix\nit\x1b]0;owned\a", State: supervisor.TaskDone,
		Body: "b\x1b]52;c;QUFB\a", Reason: "r\x1b]52;c;QUFB\aeason", Summary: "landed\x1b]0;x\a abc", Notes: []string{"n\x1b[31m"}}
	r.events <- supervisor.Event{Kind: supervisor.EventTask, Task: &done}
	eventually(t, "the done hook finished", func() bool { return strings.Contains(r.log.String(), "hook ran") })
	b, _ := os.ReadFile(out + ".done.json")
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("stdin %q: %v", b, err)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(path+"."+k, x)
			}
		case []any:
			for i, x := range v {
				walk(path+"["+string(rune('0'+i))+"]", x)
			}
		case string:
			if strings.ContainsAny(v, "\x1b\a") || strings.HasSuffix(path, "title") && strings.Contains(v, "\n") {
				t.Errorf("%s = %q keeps control characters", path, v)
			}
		}
	}
	walk("", raw)
	var got HookEvent
	if err := json.Unmarshal(b, &got); err != nil || got.Title != "fix it" || got.Task == nil ||
		got.Task.Title != "fix it" || got.Task.Reason != "reason" || got.Task.Project != "web" {
		t.Errorf("hook read %s (%v)", b, err)
	}
}
