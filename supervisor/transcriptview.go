package supervisor

// Transcript is part of a session's raw output as its transcript file
// (logs/<session>.log) holds it: ended sessions too, which is how a person
// reads what a blocked agent last showed.
type Transcript struct {
	SessionID string `json:"session_id"`
	Live      bool   `json:"live"` // the session still runs: more may follow
	Size      int64  `json:"size"` // the whole transcript's length so far
	From      int64  `json:"from"` // where Data starts
	Data      []byte `json:"data"` // raw bytes, escape sequences and all
}
