package api

// Station is what the HTTP API serves: each area's verbs, declared in the
// file of their handlers and routes (handlers_tasks.go, handlers_projects.go,
// handlers_sessions.go, handlers_agent.go), so a new verb is its station
// method, one method line, one route line and its handler, in one file
// here. *station.Station implements it; tests serve the real station over
// a test board (apitest.Board).
type Station interface {
	taskStation
	projectStation
	sessionStation
	agentStation
	phoneStation
}
