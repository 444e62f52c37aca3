package api

// Areas is what the HTTP API serves: the station's areas, each declared
// with its routes and handlers in a file of its own (handlers_tasks.go,
// handlers_projects.go, handlers_sessions.go, handlers_asks.go,
// handlers_agent.go, handlers_station.go, handlers_phone.go), which
// registers them itself (routes.go calls each). A new verb is its area's
// method, one method line in its interface and its route and handler in
// that one file. *station.Station's areas implement them (st.Tasks, …);
// tests serve the real station over a test board (apitest.Board).
type Areas struct {
	Tasks    Tasks
	Projects Projects
	Sessions Sessions
	Asks     Asks
	Agent    Agent
	Control  Control
	Phone    Phone
}
