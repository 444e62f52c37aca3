// Package demo sets up and narrates `buildstation demo`: a fresh home with a
// demo project whose tasks are played by the scripted fake agent (healthy,
// heartbeat, forgetful, wedged, silent builder) and 20-second windows, so a
// newcomer sees the whole lifecycle in about a minute with no agent CLI
// installed.
package demo
