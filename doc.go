// Command buildstation supervises AI coding-agent sessions. One binary, several
// roles: the station (daemon), the tray, the CLI, and the agent side. The
// main package is wiring only: it picks the role from the arguments and
// hands over.
package main
