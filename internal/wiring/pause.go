package wiring

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/buildstation/buildstation/internal/atomicfile"
	"github.com/buildstation/buildstation/platform/instance"
	"github.com/buildstation/buildstation/platform/service"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// pauseFile, in the home, records what `service pause` stopped so that
// `service resume` starts the same again.
const pauseFile = "paused.json"

// paused is what ran before `service pause`.
type paused struct {
	Tray      bool `json:"tray"`
	Station   bool `json:"station"`
	Autostart bool `json:"autostart"` // the station ran under the installed autostart
}

// servicePause is `service pause`: what an installer runs before it
// replaces the program's files (the MSI, before InstallFiles, on an
// upgrade and an uninstall). A running program's files cannot be
// replaced on Windows, and one killed mid-write loses work, so the tray
// is asked to quit and the station to drain, and what ran is recorded for
// `service resume`. The autostart stays installed: an upgrade keeps it.
func servicePause(ctx context.Context, cfg service.Config, dryRun bool) int {
	if dryRun {
		fmt.Printf("dry run of service pause (%s): would ask the tray and the station to quit and record which ran in %s\n",
			cfg.Home, filepath.Join(cfg.Home, pauseFile))
		return 0
	}
	var p paused
	if err := instance.Send(cfg.Home, instance.Request{Quit: true}); err == nil {
		p.Tray = true
		fmt.Println("the tray was asked to quit")
		if waitTrayGone(ctx, cfg.Home, 20*time.Second) {
			fmt.Println("the tray quit")
		} else {
			fmt.Println("the tray still answers after 20s")
		}
	}
	if _, running := stationState(ctx, cfg.Home); running {
		p.Station = true
		sys := service.OS{}
		inst := service.Native()
		if inst.Installed(cfg, sys) {
			// The installed stop drains the station and keeps the
			// autostart from starting it again meanwhile; resume
			// undoes both.
			p.Autostart = true
			if err := inst.Stop(cfg).Apply(sys, false, os.Stdout); err != nil {
				fmt.Printf("service stop: %v\n", err)
			}
		} else {
			fmt.Println(askToStop(ctx, cfg.Home, cfg.StopGrace+30*time.Second))
		}
		endStation(ctx, cfg.Home)
	}
	if !p.Tray && !p.Station {
		fmt.Printf("nothing runs on %s: nothing to pause\n", cfg.Home)
		return 0
	}
	b, _ := json.Marshal(p)
	if err := atomicfile.Write(filepath.Join(cfg.Home, pauseFile), b, 0o600); err != nil {
		return fail(fmt.Errorf("service pause: record what ran: %w", err))
	}
	fmt.Printf("paused; service resume starts again what ran (%s)\n", pauseFile)
	return 0
}

// serviceResume is `service resume`: after an installer replaced the
// files, it starts again, from the new program, what `service pause`
// stopped: the station (through the autostart when it ran under it) and
// the tray.
func serviceResume(ctx context.Context, cfg service.Config, dryRun bool) int {
	path := filepath.Join(cfg.Home, pauseFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Printf("nothing to resume on %s (service pause stopped nothing)\n", cfg.Home)
		return 0
	}
	if err != nil {
		return fail(fmt.Errorf("service resume: %w", err))
	}
	var p paused
	if err := json.Unmarshal(b, &p); err != nil {
		return fail(fmt.Errorf("service resume: %s is not what service pause writes (%v); delete it and start the tray yourself", path, err))
	}
	if dryRun {
		fmt.Printf("dry run of service resume (%s): would start the station %v, the tray %v\n", cfg.Home, p.Station, p.Tray)
		return 0
	}
	if err := os.Remove(path); err != nil {
		return fail(fmt.Errorf("service resume: %w", err))
	}
	gui := cfg.GUIExe
	if gui == "" {
		gui = cfg.Exe
	}
	code := 0
	if p.Station {
		if p.Autostart {
			if err := service.Native().Start(cfg).Apply(service.OS{}, false, os.Stdout); err != nil {
				code = fail(fmt.Errorf("service resume: start the station: %w", err))
			}
		} else if err := startDetached(gui, "--home", cfg.Home, "daemon"); err != nil {
			code = fail(fmt.Errorf("service resume: start the station: %w", err))
		} else {
			fmt.Println("the station started")
		}
	}
	if p.Tray {
		if err := startDetached(gui, "--home", cfg.Home, "--hidden"); err != nil {
			code = fail(fmt.Errorf("service resume: start the tray: %w", err))
		} else {
			fmt.Println("the tray started")
		}
	}
	_ = ctx
	return code
}

// waitTrayGone waits until no tray answers on home, up to wait.
func waitTrayGone(ctx context.Context, home string, wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		if instance.Send(home, instance.Request{Ping: true}) != nil {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(200 * time.Millisecond): // the tray quits on its own time
		}
	}
	return false
}

// endStation ends the station's process when it still runs after being
// asked to drain: its files are about to be replaced.
func endStation(ctx context.Context, home string) {
	f, err := apitype.ReadStationFile(home)
	if err != nil || f.PID <= 0 {
		return
	}
	if _, running := stationState(ctx, home); !running {
		return
	}
	if pr, err := os.FindProcess(f.PID); err == nil && pr.Kill() == nil {
		fmt.Printf("the station (pid %d) was ended\n", f.PID)
	}
}
