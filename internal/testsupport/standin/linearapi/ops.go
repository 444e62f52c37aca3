package linearapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// filter is the part of Linear's IssueFilter the station sends.
type filter struct {
	Team *struct {
		Key *struct{ Eq string } `json:"key"`
	} `json:"team"`
	State *struct {
		Name *struct{ Eq string } `json:"name"`
	} `json:"state"`
	Labels *struct {
		Name *struct{ Eq string } `json:"name"`
	} `json:"labels"`
	UpdatedAt *struct{ Gt string } `json:"updatedAt"`
}

type vars struct {
	Filter  filter `json:"filter"`
	After   string `json:"after"`
	ID      string `json:"id"`
	IssueID string `json:"issueId"`
	StateID string `json:"stateId"`
	Body    string `json:"body"`
	URL     string `json:"url"`
	Title   string `json:"title"`
	Key     string `json:"key"`
	Team    string `json:"team"`
	Name    string `json:"name"`
	TeamID  string `json:"teamId"`
	LabelID string `json:"labelId"`
}

// operation answers one request by its operation name.
func (s *Server) operation(req request) (any, error) {
	var v vars
	if len(req.Variables) > 0 {
		if err := json.Unmarshal(req.Variables, &v); err != nil {
			return nil, fmt.Errorf("variables: %w", err)
		}
	}
	switch req.OperationName {
	case "Issues", "IssuesAfter":
		return s.issuesOp(v)
	case "Issue", "Activity":
		is := s.find(v.ID)
		if is == nil {
			return nil, errNotFound("Issue")
		}
		return map[string]any{"issue": s.issueJSON(is)}, nil
	case "ActivityBy":
		is := s.find(v.ID)
		if is == nil {
			return nil, errNotFound("Issue")
		}
		var nodes []map[string]string
		for _, m := range members {
			nodes = append(nodes, map[string]string{"id": m})
		}
		js := s.issueJSON(is)
		js["team"] = map[string]any{"members": map[string]any{"nodes": nodes}}
		return map[string]any{"issue": js, "viewer": map[string]string{"id": Viewer}}, nil
	case "TeamLabels":
		var nodes []map[string]string
		for _, l := range s.labels {
			if l == v.Name && v.Team == s.Team {
				nodes = append(nodes, map[string]string{"id": "label-" + l, "name": l})
			}
		}
		return map[string]any{"issueLabels": map[string]any{"nodes": orEmpty(nodes)}}, nil
	case "CreateLabel":
		if v.TeamID != "team-1" {
			return nil, errNotFound("Team")
		}
		if !slices.Contains(s.labels, v.Name) {
			s.labels = append(s.labels, v.Name)
		}
		return map[string]any{"issueLabelCreate": map[string]any{"success": true, "issueLabel": map[string]string{"id": "label-" + v.Name}}}, nil
	case "Viewer":
		return map[string]any{"viewer": map[string]string{"id": Viewer}}, nil
	case "Team":
		var nodes []map[string]string
		if v.Key == s.Team {
			nodes = append(nodes, map[string]string{"id": "team-1", "key": s.Team})
		}
		return map[string]any{"teams": map[string]any{"nodes": orEmpty(nodes)}}, nil
	case "CompletedState":
		// workflowStates filtered by the team's key and type "completed",
		// the first the team lists.
		var nodes []map[string]string
		for _, st := range s.states {
			if st.Type == "completed" && v.Team == s.Team && len(nodes) == 0 {
				nodes = append(nodes, map[string]string{"id": st.ID, "name": st.Name})
			}
		}
		return map[string]any{"workflowStates": map[string]any{"nodes": orEmpty(nodes)}}, nil
	case "States":
		var nodes []map[string]string
		if st := s.stateOf(v.Name); st.ID != "" && v.Team == s.Team {
			nodes = append(nodes, map[string]string{"id": st.ID, "name": st.Name})
		}
		return map[string]any{"workflowStates": map[string]any{"nodes": orEmpty(nodes)}}, nil
	}
	return s.mutation(req.OperationName, v)
}

func (s *Server) mutation(op string, v vars) (any, error) {
	is := s.find(v.ID + v.IssueID)
	if is == nil {
		return nil, errNotFound("Issue")
	}
	now := s.now().UTC()
	switch op {
	case "MoveIssue":
		i := slices.IndexFunc(s.states, func(st State) bool { return st.ID == v.StateID })
		if i < 0 {
			return nil, errNotFound("WorkflowState")
		}
		if is.State != s.states[i].Name {
			is.History = append(is.History, Move{From: is.State, To: s.states[i].Name, CreatedAt: now, Actor: Viewer})
			is.State = s.states[i].Name
		}
		is.UpdatedAt = now
		return map[string]any{"issueUpdate": map[string]any{"success": true}}, nil
	case "AddLabel":
		name, ok := strings.CutPrefix(v.LabelID, "label-")
		if !ok || !slices.Contains(s.labels, name) {
			return nil, errNotFound("IssueLabel")
		}
		if !slices.Contains(is.Labels, name) {
			is.Labels = append(is.Labels, name)
		}
		is.UpdatedAt = now
		return map[string]any{"issueAddLabel": map[string]any{"success": true}}, nil
	case "Comment":
		is.Comments = append(is.Comments, Comment{Body: v.Body, CreatedAt: now, User: Viewer})
		is.UpdatedAt = now
		url := fmt.Sprintf("https://linear.app/acme/issue/%s#comment-%d", is.Identifier, len(is.Comments))
		return map[string]any{"commentCreate": map[string]any{"success": true, "comment": map[string]string{"url": url}}}, nil
	case "Attach":
		// Documented: an attachment's url is unique per issue; creating
		// it again updates the one there.
		if !slices.Contains(is.Attachments, v.URL) {
			is.Attachments = append(is.Attachments, v.URL)
		}
		is.UpdatedAt = now
		return map[string]any{"attachmentCreate": map[string]any{"success": true, "attachment": map[string]string{"url": v.URL}}}, nil
	}
	return nil, fmt.Errorf("unknown operation %q", op)
}

// issuesOp is the issues query: every filter given must match; ordered by
// updatedAt, newest first, in pages of 100 (the cursor is an index).
func (s *Server) issuesOp(v vars) (any, error) {
	f := v.Filter
	var since time.Time
	if f.UpdatedAt != nil {
		t, err := time.Parse(time.RFC3339Nano, f.UpdatedAt.Gt)
		if err != nil {
			return nil, fmt.Errorf("updatedAt: %w", err)
		}
		since = t
	}
	var nodes []map[string]any
	var list []*Issue
	for _, is := range s.issues {
		switch {
		case f.Team != nil && f.Team.Key != nil && f.Team.Key.Eq != s.Team,
			f.State != nil && f.State.Name != nil && f.State.Name.Eq != is.State,
			f.Labels != nil && f.Labels.Name != nil && !slices.Contains(is.Labels, f.Labels.Name.Eq),
			f.UpdatedAt != nil && !is.UpdatedAt.After(since):
			continue
		}
		list = append(list, is)
	}
	// orderBy: updatedAt, the newest first.
	slices.Reverse(list)
	slices.SortStableFunc(list, func(a, b *Issue) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	for _, is := range list {
		nodes = append(nodes, s.issueJSON(is))
	}
	// Pages of 100; the cursor is the index of the page's last node.
	from := 0
	if v.After != "" {
		n, err := strconv.Atoi(v.After)
		if err != nil {
			return nil, fmt.Errorf("after: not a cursor %q", v.After)
		}
		from = n + 1
	}
	from = min(from, len(nodes))
	to := min(from+100, len(nodes))
	var end any
	if to > from {
		end = strconv.Itoa(to - 1)
	}
	return map[string]any{"issues": map[string]any{"nodes": orEmpty(nodes[from:to]), "pageInfo": map[string]any{"hasNextPage": to < len(nodes), "endCursor": end}}}, nil
}

func (s *Server) issueJSON(is *Issue) map[string]any {
	st := s.stateOf(is.State)
	var labels, comments, history []map[string]any
	for _, l := range is.Labels {
		labels = append(labels, map[string]any{"name": l})
	}
	for _, c := range is.Comments {
		comments = append(comments, map[string]any{"body": c.Body, "createdAt": c.CreatedAt.Format(time.RFC3339Nano), "user": userJSON(c.User)})
	}
	for _, h := range is.History {
		history = append(history, map[string]any{"createdAt": h.CreatedAt.Format(time.RFC3339Nano), "actor": userJSON(h.Actor),
			"fromState": map[string]string{"name": h.From}, "toState": map[string]string{"name": h.To}})
	}
	return map[string]any{"id": is.ID, "identifier": is.Identifier, "title": is.Title, "description": is.Description,
		"url": "https://linear.app/acme/issue/" + is.Identifier, "updatedAt": is.UpdatedAt.Format(time.RFC3339Nano),
		"state":    map[string]string{"name": st.Name, "type": st.Type},
		"labels":   map[string]any{"nodes": orEmpty(labels)},
		"comments": map[string]any{"nodes": orEmpty(comments)},
		"history":  map[string]any{"nodes": orEmpty(history)}}
}

// userJSON is a User by id, or null (an integration's comment).
func userJSON(id string) any {
	if id == "" {
		return nil
	}
	return map[string]string{"id": id}
}

func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

// errNotFound is Linear's own error for an unknown id, in its words
// ("Entity not found: Issue"), which a client may match on.
func errNotFound(entity string) error {
	return errors.New("Entity not found: " + entity)
}
