package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/buildstation/buildstation/platform/service"
	"github.com/buildstation/buildstation/supervisor/config"
)

const serviceUsage = "usage: buildstation service install|uninstall|start|stop|status [--dry-run] [--home DIR]"

// runService is `buildstation service …`: the station as the user's
// background service, the tray at login, the buildstation:// scheme.
// `service run` is what the Windows service itself runs.
func runService(ctx context.Context, homeFlag string, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "buildstation: service needs a subcommand; "+serviceUsage)
		return 2
	}
	op, dryRun := args[0], false
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--dry-run" || a == "-dry-run" || a == "-n":
			dryRun = true
		case a == "--home" || a == "-home":
			if i+1 >= len(args) {
				fmt.Fprintln(os.Stderr, "buildstation: --home needs a folder; "+serviceUsage)
				return 2
			}
			homeFlag = args[i+1]
			i++
		case strings.HasPrefix(a, "--home="):
			homeFlag = strings.TrimPrefix(a, "--home=")
		default:
			fmt.Fprintf(os.Stderr, "buildstation: unknown argument %q; %s\n", a, serviceUsage)
			return 2
		}
	}
	if op == "run" {
		err := service.RunStation(ctx, func(ctx context.Context) error {
			if code := runDaemon(ctx, homeFlag, nil); code != 0 {
				return fmt.Errorf("the station exited with code %d", code)
			}
			return nil
		})
		if err != nil {
			return fail(err)
		}
		return 0
	}
	cfg, err := serviceConfig(homeFlag)
	if err != nil {
		return fail(err)
	}
	inst := service.Native()
	var plan service.Plan
	switch op {
	case "install":
		if plan, err = inst.Install(cfg); err != nil {
			return fail(err)
		}
		if !dryRun {
			// launchd opens the log before the station runs; the folder
			// must be there.
			if err := os.MkdirAll(filepath.Join(cfg.Home, config.DirLogs), 0o700); err != nil {
				return fail(err)
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
		return 2
	}
	if dryRun {
		fmt.Printf("dry run of service %s (%s); nothing is changed:\n", op, cfg.Describe())
	}
	if err := plan.Apply(service.OS{Password: readPassword}, dryRun, os.Stdout); err != nil {
		return fail(fmt.Errorf("service %s: %w", op, err))
	}
	if op == "uninstall" && !dryRun {
		fmt.Printf("the station's home %s (board, config, logs) is kept; delete it yourself if you want it gone\n", cfg.Home)
	}
	return 0
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
		UID: os.Getuid(), Path: os.Getenv("PATH"),
	}
	if u, err := user.Current(); err == nil {
		c.User = u.Username // DOMAIN\user on Windows
	}
	return c, nil
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
