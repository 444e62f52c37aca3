package wiring

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/buildstation/buildstation/platform/service"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

const serviceUsage = "usage: buildstation service install|uninstall|start|stop|status|pause|resume [--dry-run] [--home DIR] [--system (Windows: an SCM service, needs admin)]"

// Service is `buildstation service …`: the station as the user's
// background service, the tray at login, the buildstation:// scheme.
// `service run` is what the Windows service itself runs. The command line
// has taken --home out of args already.
func Service(ctx context.Context, homeFlag string, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "buildstation: service needs a subcommand; "+serviceUsage)
		return 2
	}
	op, dryRun, system := args[0], false, false
	for _, a := range args[1:] {
		switch a {
		case "--dry-run", "-dry-run", "-n":
			dryRun = true
		case "--system", "-system":
			system = true
		default:
			fmt.Fprintf(os.Stderr, "buildstation: unknown argument %q; %s\n", a, serviceUsage)
			return 2
		}
	}
	if op == "run" {
		return runAsService(ctx, homeFlag)
	}
	if system && runtime.GOOS != "windows" {
		fmt.Fprintln(os.Stderr, "buildstation: --system is for Windows only; on macOS and Linux the station is always a service of your own user")
		return 2
	}
	cfg, err := serviceConfig(homeFlag)
	if err != nil {
		return fail(err)
	}
	cfg.System = system
	cfg.AskStop = func(wait time.Duration) string { return askToStop(ctx, cfg.Home, wait) }
	switch op {
	case "pause":
		return servicePause(ctx, cfg, dryRun)
	case "resume":
		return serviceResume(ctx, cfg, dryRun)
	}
	if op == "install" && runtime.GOOS != "windows" {
		var note string
		cfg.Path, note = service.CapturePath(runtime.GOOS, os.Getenv("SHELL"), os.Getenv("PATH"), service.OS{}.Run)
		fmt.Println(note)
	}
	plan, code := servicePlan(op, cfg, dryRun)
	if plan == nil {
		return code
	}
	return applyService(ctx, op, cfg, *plan, dryRun)
}

// runAsService runs the station under the OS's service manager.
func runAsService(ctx context.Context, homeFlag string) int {
	err := service.RunStation(ctx, service.StopWait(stopGrace(homeFlag)), func(ctx context.Context) error {
		if code := Daemon(ctx, homeFlag, nil); code != 0 {
			return fmt.Errorf("the station exited with code %d", code)
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	return 0
}

// servicePlan is what op would do on this OS; nil, with the exit code,
// when op is unknown or cannot be planned.
func servicePlan(op string, cfg service.Config, dryRun bool) (*service.Plan, int) {
	inst := service.Native()
	var plan service.Plan
	switch op {
	case "install":
		var err error
		if plan, err = inst.Install(cfg); err != nil {
			return nil, fail(err)
		}
		if !dryRun {
			// launchd opens the log before the station runs; the folder
			// must be there.
			if err := os.MkdirAll(filepath.Join(cfg.Home, config.DirLogs), 0o700); err != nil {
				return nil, fail(err)
			}
		}
	case "uninstall":
		plan = inst.Uninstall(cfg)
	case "start":
		plan = inst.Start(cfg)
	case "stop":
		plan = inst.Stop(cfg)
	case "status":
		plan = inst.Status(cfg)
	default:
		fmt.Fprintf(os.Stderr, "buildstation: unknown command \"service %s\"; %s\n", op, serviceUsage)
		return nil, 2
	}
	return &plan, 0
}

// applyService carries plan out (or prints it, for a dry run) and says
// what a person should know after.
func applyService(ctx context.Context, op string, cfg service.Config, plan service.Plan, dryRun bool) int {
	if dryRun {
		fmt.Printf("dry run of service %s (%s); nothing is changed:\n", op, cfg.Describe())
	}
	if cfg.System && op == "install" {
		fmt.Println(systemCost)
	}
	sys := service.OS{Password: readPassword}
	var err error
	if op == "install" && !dryRun {
		err = plan.ApplyAll(sys, os.Stdout)
	} else {
		err = plan.Apply(sys, dryRun, os.Stdout)
	}
	if err != nil {
		return fail(fmt.Errorf("service %s: %w", op, err))
	}
	if op == "status" && !dryRun {
		line, running := stationState(ctx, cfg.Home)
		fmt.Println(line)
		inst := service.Native()
		enabled, known := inst.Enabled(cfg, sys)
		fmt.Println(service.StateOf(inst.Installed(cfg, sys), enabled, known, running).Sentence())
	}
	if op == "uninstall" && !dryRun {
		fmt.Printf("the station's home %s (board, config, logs) is kept; delete it yourself if you want it gone\n", cfg.Home)
	}
	return 0
}

// systemCost is what `service install --system` costs, said before it asks
// for anything.
const systemCost = `--system: the station becomes a Windows service (Service Control Manager) that runs as you.
That needs an administrator's prompt, your account's password (a PIN or a Microsoft-account
sign-in is not one), and the "Log on as a service" right; it runs in session 0, with no
desktop (no browser for "claude /login"). Without --system the station runs as a logon task
of your own, which needs none of this.`

// stationState says whether a station answers on home: the part of
// status no unit file or registry value can tell.
func stationState(ctx context.Context, home string) (line string, running bool) {
	f, err := apitype.ReadStationFile(home)
	if err != nil {
		return fmt.Sprintf("station on %s: not running (no station.json)", home), false
	}
	c, err := client.Dial(home)
	if err == nil {
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		if _, err = c.Status(cctx); err == nil {
			return fmt.Sprintf("station on %s: running (pid %d, %s)", home, f.PID, f.URL), true
		}
	}
	return fmt.Sprintf("station on %s: not answering (station.json names pid %d, %s: %v)", home, f.PID, f.URL, err), false
}

// askToStop asks the station on home to drain and stop, and waits up to
// wait for it to stop answering: what a logon task's stop does before it
// terminates the station. It says what happened in one line.
func askToStop(ctx context.Context, home string, wait time.Duration) string {
	c, err := client.Dial(home)
	if err != nil {
		return "no station answers on " + home + ": nothing to drain"
	}
	actx, cancel := context.WithTimeout(ctx, 10*time.Second)
	msg, err := c.RequestStop(actx)
	cancel()
	if err != nil {
		return fmt.Sprintf("the station was not asked to drain (%v): it is ended now", err)
	}
	fmt.Println(msg)
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		_, err := c.Status(sctx)
		cancel()
		if err != nil {
			return "the station stopped"
		}
		select {
		case <-ctx.Done():
			return "not waiting any longer: the station is ended now"
		case <-time.After(time.Second):
		}
	}
	return fmt.Sprintf("the station still runs after %s: it is ended now", wait)
}

// stopGrace is the home's stop_grace, the default when it has no config
// or its config does not parse (the station will say why when it starts).
// It only reads: a service command writes nothing into the home, so an
// uninstall (the MSI's runs `service uninstall`) leaves no first-run
// config.toml behind in a home that never had one.
func stopGrace(homeFlag string) time.Duration {
	home, err := config.Home(homeFlag)
	if err != nil {
		return config.DefaultStopGrace
	}
	path := filepath.Join(home, config.FileConfig)
	data, err := os.ReadFile(path)
	if err != nil {
		return config.DefaultStopGrace
	}
	cfg, err := config.Parse(path, data, config.Platform{})
	if err != nil {
		return config.DefaultStopGrace
	}
	return cfg.StopGrace
}

// serviceConfig gathers what the installers need from this OS and user.
func serviceConfig(homeFlag string) (service.Config, error) {
	exe, err := os.Executable()
	if err != nil {
		return service.Config{}, fmt.Errorf("find this program's path: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	home, err := config.Home(homeFlag)
	if err != nil {
		return service.Config{}, err
	}
	userHome, err := os.UserHomeDir()
	if err != nil {
		return service.Config{}, fmt.Errorf("find your home folder: %w", err)
	}
	c := service.Config{
		Exe: exe, Home: home, HomeFlag: homeFlag != "", UserHome: userHome,
		UID: os.Getuid(), Path: os.Getenv("PATH"), Tray: hasTray, StopGrace: stopGrace(homeFlag),
	}
	if runtime.GOOS == "windows" {
		c.GUIExe, c.Exe = windowsFaces(exe)
	}
	if u, err := user.Current(); err == nil {
		c.User = u.Username // DOMAIN\user on Windows
	}
	return c, nil
}

// windowsFaces finds, from any of the program's executables, the two
// faces of the whole program: gui, buildstationw.exe (what the logon task,
// the Run key and the link handler start: no console window), and console,
// what the opt-in SCM service runs: buildstation-app.exe beside it (the
// MSI's layout, where buildstation.exe is the light command line that
// hands the service verbs over), else buildstation.exe beside the GUI face
// (releases before the light front, or two whole builds side by side). A
// lone exe is both.
func windowsFaces(exe string) (gui, console string) {
	dir, base := filepath.Split(exe)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	isGUI := false
	switch lower := strings.ToLower(stem); {
	case strings.HasSuffix(lower, "-app"):
		stem = stem[:len(stem)-len("-app")]
	case strings.HasSuffix(lower, "w"):
		stem, isGUI = stem[:len(stem)-len("w")], true
	}
	there := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.Mode().IsRegular()
	}
	gui, console = exe, exe
	if p := filepath.Join(dir, stem+"w.exe"); there(p) {
		gui = p
	}
	if p := filepath.Join(dir, stem+"-app.exe"); there(p) {
		console = p
	} else if p := filepath.Join(dir, stem+".exe"); isGUI && there(p) {
		console = p
	}
	return gui, console
}

// readPassword asks for the Windows account's password, which a service
// that runs as that account needs; without a terminal it reads one line
// from stdin (`echo … | buildstation service install`).
func readPassword(account string) (string, error) {
	fd := int(os.Stdin.Fd())
	if term.IsTerminal(fd) {
		fmt.Fprintf(os.Stderr, "The station runs as %s so that agents have your tools and logins.\nPassword for %s: ", account, account)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(os.Stderr)
		return string(b), err
	}
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		return "", errors.New("no password on stdin; run install in a terminal, or pipe the password in")
	}
	return strings.TrimRight(line, "\r\n"), nil
}
