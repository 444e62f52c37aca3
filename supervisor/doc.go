// Package supervisor is Build Station's shared vocabulary: the task and its
// one transition rule (Task.Apply), session states and kinds, events and
// notices, and the interfaces the engine is served through (Board,
// SharedBoard, Spawner, Prober, Files, Workspaces, Notifier).
//
// Every side imports it: the engine (supervisor/station), the stores, the
// platform packages that implement its interfaces, the API client, the CLI
// and the tray. It holds no goroutines and does no I/O, so linking it pulls
// in nothing of the engine: the tray and the CLI see the station only
// through supervisor/client.
package supervisor
