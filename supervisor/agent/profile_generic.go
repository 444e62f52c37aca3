package agent

func init() {
	Register(Profile{Name: Generic, About: "any command: it reads $BUILDSTATION_PROMPT_FILE and reports with `buildstation agent …`", Launch: genericLaunch})
}

// genericLaunch runs the command as it is: it reads
// BUILDSTATION_PROMPT_FILE and reports with `buildstation agent …`; no
// prompt argument, no wiring.
func genericLaunch(spec LaunchSpec) (Launch, error) {
	return Launch{Argv: baseArgv(spec.Agent)}, nil
}
