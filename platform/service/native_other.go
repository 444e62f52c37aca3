//go:build !darwin && !linux && !windows

package service

import "errors"

// Native is this OS's installer: none here.
func Native() Installer { return unsupported{} }

type unsupported struct{}

var errNoInstaller = errors.New("buildstation service supports macOS, Linux and Windows; run `buildstation daemon` from your own init system")

func (unsupported) Install(Config) (Plan, error)        { return nil, errNoInstaller }
func (unsupported) Uninstall(Config) Plan               { return nil }
func (unsupported) Start(Config) Plan                   { return nil }
func (unsupported) Stop(Config) Plan                    { return nil }
func (unsupported) Status(Config) Plan                  { return nil }
func (unsupported) Installed(Config, System) bool       { return false }
func (unsupported) Enabled(Config, System) (bool, bool) { return false, false }
