// Package github is a source's edge to GitHub (or GitHub Enterprise
// Server): it lists a repository's labelled open issues with conditional
// requests, reads one issue, comments, sets a state label, opens a pull
// request and reads an issue's activity, through google/go-github. Errors
// come back as *source.APIError, or wrapping supervisor.ErrUnreachable when
// GitHub did not answer.
package github
