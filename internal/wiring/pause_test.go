package wiring

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/buildstation/buildstation/platform/instance"
	"github.com/buildstation/buildstation/platform/service"
)

// service pause, as the MSI runs it before replacing the files: a running
// tray gets {"quit": true} over its endpoint, and paused.json records that
// it ran, for service resume. With nothing running it writes nothing.
func TestPauseAsksTheTrayToQuitAndRecordsIt(t *testing.T) {
	home := t.TempDir()
	cfg := service.Config{Home: home, Exe: filepath.Join(home, "no-such-program")}
	if code := servicePause(context.Background(), cfg, false); code != 0 {
		t.Fatalf("pause with nothing running: exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(home, pauseFile)); !os.IsNotExist(err) {
		t.Fatalf("pause with nothing running wrote %s (%v)", pauseFile, err)
	}

	srv, err := instance.Listen(home)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan instance.Request, 1)
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(ctx, func(r instance.Request) {
			got <- r
			cancel() // the tray quits: its endpoint closes
		})
	}()
	if code := servicePause(context.Background(), cfg, false); code != 0 {
		t.Fatalf("pause: exit %d", code)
	}
	<-served
	if r := <-got; !r.Quit {
		t.Fatalf("the tray got %+v, want quit", r)
	}
	b, err := os.ReadFile(filepath.Join(home, pauseFile))
	if err != nil {
		t.Fatal(err)
	}
	var p paused
	if err := json.Unmarshal(b, &p); err != nil || !p.Tray || p.Station {
		t.Fatalf("paused.json %s (%v), want the tray alone", b, err)
	}
}

// service resume with nothing paused does nothing; one with a record that
// names nothing removes it; a record that is not one is refused in a
// sentence that says what to do.
func TestResumeReadsWhatPauseWrote(t *testing.T) {
	home := t.TempDir()
	cfg := service.Config{Home: home, Exe: filepath.Join(home, "no-such-program")}
	if code := serviceResume(context.Background(), cfg, false); code != 0 {
		t.Fatalf("resume with nothing paused: exit %d", code)
	}
	path := filepath.Join(home, pauseFile)
	if err := os.WriteFile(path, []byte(`{"tray":false,"station":false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := serviceResume(context.Background(), cfg, false); code != 0 {
		t.Fatalf("resume of an empty record: exit %d", code)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("resume left %s (%v)", pauseFile, err)
	}
	if err := os.WriteFile(path, []byte(`not json`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := serviceResume(context.Background(), cfg, false); code == 0 {
		t.Fatal("resume of a broken record: exit 0")
	}
}
