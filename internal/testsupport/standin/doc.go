// Package standin holds stand-ins for the services the station writes to,
// served over real loopback HTTP in tests: ghapi is GitHub's REST API
// (issues, comments, labels, pulls, conditional requests, rate limits),
// linearapi is Linear's GraphQL API (issues with filters, issueUpdate,
// commentCreate, attachmentCreate). Each is built from the service's
// documented shapes and keeps only what the station uses.
package standin
