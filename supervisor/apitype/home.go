package apitype

// EnvHome names the environment variable that overrides the home folder.
const EnvHome = "BUILDSTATION_HOME"
