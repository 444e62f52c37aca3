package boardsql

// Board answers the part of supervisor.Board that both SQL boards answer
// alike, on a store's DB. A store embeds it, so those methods are written
// once and are the store's own; the store writes the ones its database
// answers differently (a claim, session records) and may replace any of
// these with one that adds its own steps (the shared board's Move checks
// the lease).
type Board[Tx any] struct {
	db DB[Tx]
}

// NewBoard is the Board a store embeds, on db.
func NewBoard[Tx any](db DB[Tx]) Board[Tx] { return Board[Tx]{db: db} }
