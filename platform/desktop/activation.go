package desktop

// activationSteps is how the dashboard process comes to the front on
// macOS when the tray shows it.
type activationSteps struct {
	// yield: the tray first hands its activation to the dashboard
	// (NSApplication yieldActivationToApplication:).
	yield bool
	// cooperative: the dashboard calls NSApplication activate, which
	// takes what was yielded, instead of activateIgnoringOtherApps:.
	cooperative bool
}

// activationFor is the steps for macOS major version major. From macOS 14
// activation is cooperative: activateIgnoringOtherApps: is deprecated and
// may leave a window behind the front one unless the active app (the tray,
// which a person just clicked or which took a link) yields to it first.
func activationFor(major int) activationSteps {
	if major >= 14 {
		return activationSteps{yield: true, cooperative: true}
	}
	return activationSteps{}
}
