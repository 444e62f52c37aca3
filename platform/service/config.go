package service

import (
	"errors"
	"fmt"
)

// check refuses a Config an installed service could not run from.
func (c Config) check() error {
	switch {
	case c.Exe == "":
		return errors.New("the path of this program is unknown")
	case c.Home == "":
		return errors.New("the station's home folder is unknown")
	case c.UserHome == "":
		return errors.New("the user's home folder is unknown")
	}
	return nil
}

// daemonArgs are the station's arguments after the program; --home is
// always given, resolved at install, so that a service environment without
// the user's variables still finds the same home.
func (c Config) daemonArgs() []string { return []string{"daemon", "--home", c.Home} }

// trayArgs start the tray hidden; --home only when the user chose one.
func (c Config) trayArgs() []string {
	if c.HomeFlag {
		return []string{c.Exe, "--home", c.Home, "--hidden"}
	}
	return []string{c.Exe, "--hidden"}
}

// Describe is the Config in one line, for the top of a dry run.
func (c Config) Describe() string {
	return fmt.Sprintf("program %s, home %s", c.Exe, c.Home)
}
