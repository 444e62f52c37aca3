package source

import "context"

// Ledger keeps the write-backs owed to sources, durably, in the order they
// were queued (supervisor/outbox keeps it in the station's outbox.db). A
// key is taken once, ever: a write is queued once and, once landed, never
// queued again.
type Ledger interface {
	// Queue keeps w; ok is false when its key was queued before.
	Queue(ctx context.Context, w Write) (ok bool, err error)
	// Pending lists the writes not landed yet, oldest first.
	Pending(ctx context.Context) ([]Write, error)
	// Try marks a write as being sent: a replay after a crash checks
	// upstream before it sends it again.
	Try(ctx context.Context, key string) error
	// Done records that a write landed (or was refused for good, with
	// why), with what it made.
	Done(ctx context.Context, key string, s Sent, why string) error
	// Made is what a landed write made (a pull request's URL).
	Made(ctx context.Context, key string) (Sent, bool)
}
