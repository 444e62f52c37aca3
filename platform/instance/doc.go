// Package instance keeps one tray per user: the first `buildstation`
// listens on a local endpoint in the home folder, and a second one (or
// `buildstation open ID`, what a notification click runs) hands its
// request over and exits. On unix the endpoint is the socket
// <home>/tray.sock (the home is the user's own, mode 0700); on Windows a
// loopback port written to <home>/tray.json with a token.
package instance
