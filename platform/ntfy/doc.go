// Package ntfy is the station's client of an ntfy server (the public
// instance, or one a user hosts): it publishes a message as JSON (title, priority, tags, a
// click link, action buttons, a sequence id that makes a later message
// update an earlier notification) and follows a topic's JSON stream
// (GET /<topic>/json), the outbound connection the phone's answers come
// back on. It knows ntfy's documented API and nothing of the station.
package ntfy
