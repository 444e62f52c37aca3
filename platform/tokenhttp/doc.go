// Package tokenhttp is the HTTP client a source's token travels in: the
// token is added only to requests for the API's own scheme and host (a
// redirect to another host goes without it), plain http is refused but to
// a loopback address (a stand-in in tests), and every answer's body is
// read bounded, so a hostile or broken service cannot fill the station's
// memory. platform/github and platform/linear build on it.
package tokenhttp
