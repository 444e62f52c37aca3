// Package ghapi is a stand-in for GitHub's REST API over loopback HTTP,
// built from its documented shapes: the issues of a repository (listed by
// label and state, with an ETag and If-None-Match answered 304), their
// comments, labels and events, the repository's default branch, and pull
// requests with their reviews, review comments and merge, check runs on a
// commit and an Actions job's log (a 302 to where it is). Every answer
// carries the rate-limit headers; a 304 does not use the limit. Faults
// (401, 403 with a reset, a dropped connection) are set by the test.
package ghapi
