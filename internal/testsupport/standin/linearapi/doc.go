// Package linearapi is a stand-in for Linear's GraphQL API over loopback
// HTTP, built from its documented shapes: a POST of {query, variables,
// operationName} with the API key in Authorization, answered with {data}
// or {errors: [{message, extensions: {code}}]}. It keeps one team's
// workflow states and issues (labels, comments, history, attachments) and
// answers the operations platform/linear sends: the issues query with a
// team, label, state and updatedAt filter, issue, teams, workflowStates,
// issueUpdate, commentCreate and attachmentCreate. Faults (a bad key, a
// rate limit with its reset headers, a dropped connection) are set by the
// test.
package linearapi
