package tray

// AppID is the windows' identity for the OS and Fyne's preferences: the
// dashboard process's Fyne app, and the file the tray reads its
// notification settings from.
const AppID = "dev.buildstation.app"

// The tray process shows no window itself: it hands what to show to the
// dashboard process, one Request a line of JSON on that process's stdin
// (dashproc.go: Dashboards on the tray's side, RunDashboard on the other).

// Request is what the tray asks the dashboard process to show.
type Request struct {
	Do   string `json:"do"`
	ID   string `json:"id,omitempty"`   // DoSession, DoConsole: the session; DoDiff: the task
	Text string `json:"text,omitempty"` // DoError: what failed
}

// What a Request asks the dashboard process to show (Request.Do).
const (
	DoDashboard  = "dashboard"
	DoSession    = "session" // a notice's or a link's session: console while it runs, card after
	DoConsole    = "console"
	DoDiff       = "diff" // a task's diff window (ID: the task), from its finished notice
	DoAddTask    = "add-task"
	DoSettings   = "settings"
	DoAddProject = "add-project"
	DoError      = "error"
	DoPreview    = "preview" // the tray's icon and menu in a window
)
