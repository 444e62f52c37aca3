// Package phone forwards a station's notices to a person's phone through a
// service they already run (ntfy, or a webhook in a Slack-, Discord- or
// plain JSON shape), with no inbound port on their machine: per kind and
// per project, bounded and sanitized, held back in quiet hours, batched
// when several come within a minute, retried with back-off when the
// service does not answer. A permission forwarded to ntfy carries Allow
// once and Deny; the phone's answer comes back on a second topic the
// station follows outbound, and is taken only with a key made from the
// station's token for that one request, once, while the request waits.
// It runs on its own goroutine as a bus subscriber, like noticefollow.
package phone
