// Package ntfyapi is a stand-in of an ntfy server over loopback HTTP,
// built from ntfy's documented publish and subscribe API: publishing as
// JSON to the root or as a body with headers (Title, Priority, Tags,
// Click, Actions in JSON or the short form, X-Sequence-ID) to /<topic>
// or /<topic>/<sequence-id>; the message cache; the JSON stream
// GET /<topic>/json (open and message events, since=, poll=1); access
// tokens as bearer auth; and a phone: Press performs an "http" action the
// way the ntfy app does. It keeps only what the station uses.
package ntfyapi
