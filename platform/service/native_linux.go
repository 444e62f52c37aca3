package service

// Native is this OS's installer.
func Native() Installer { return Linux{} }
