package apitype

// Error is an answer the station refused, with its one-sentence reason.
type Error struct {
	Status  int    // HTTP status
	Message string // what to do, as the station said it
}

func (e *Error) Error() string { return e.Message }

// ErrorBody is the JSON shape of every refusal.
type ErrorBody struct {
	Error string `json:"error"`
}
