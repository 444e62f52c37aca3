package linearapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/standin"
)

// Server is the stand-in.
type Server struct {
	*httptest.Server
	Key  string
	Team string

	mu       sync.Mutex
	states   []State
	labels   []string // the team's labels, by name
	issues   []*Issue
	fault    *Fault
	requests []string // operation names, in order
	now      func() time.Time
}

// State is a workflow state.
type State struct{ ID, Name, Type string }

// Issue is an issue as the stand-in keeps it.
type Issue struct {
	ID          string
	Identifier  string
	Title       string
	Description string
	State       string // its state's name
	Labels      []string
	Comments    []Comment
	History     []Move
	Attachments []string // URLs
	UpdatedAt   time.Time
}

// Comment is one comment.
type Comment struct {
	Body      string
	CreatedAt time.Time
	User      string // its author's user id ("" = an integration: user null)
}

// Move is one state change in an issue's history.
type Move struct {
	From, To  string
	CreatedAt time.Time
	Actor     string // who moved it (a user id)
}

// Viewer is the id of the user the stand-in's key belongs to (viewer {
// id }): the author of what the station writes.
const Viewer = "user-station"

// Member is a team member the tests act as: Edit's moves are theirs.
const Member = "user-ana"

// members are the team's members.
var members = []string{Viewer, Member, "user-ben"}

// Fault is what the next requests get instead of an answer.
type Fault struct {
	Code   string // RATELIMITED, AUTHENTICATION_ERROR, FORBIDDEN
	Status int    // HTTP status; 400 when 0
	Header http.Header
	Drop   bool
	Count  int // 0: until cleared
	// Op, when set, limits the fault to that operation ("IssuesAfter");
	// After to the page after that cursor.
	Op, After string
}

// New starts a stand-in for team that accepts key.
func New(team, key string) *Server {
	s := &Server{Key: key, Team: team, now: time.Now}
	for i, st := range [][2]string{{"Backlog", "backlog"}, {"Todo", "unstarted"}, {"In Progress", "started"}, {"In Review", "started"},
		{"Blocked", "started"}, {"Done", "completed"}, {"Canceled", "canceled"}} {
		s.states = append(s.states, State{ID: fmt.Sprintf("state-%d", i+1), Name: st[0], Type: st[1]})
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// APIURL is what a source's api_url is set to.
func (s *Server) APIURL() string { return s.URL + "/graphql" }

// AddIssue adds an issue in state with labels and returns its identifier.
func (s *Server) AddIssue(title, description, state string, labels ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.issues) + 1
	is := &Issue{ID: fmt.Sprintf("0000-%04d", n), Identifier: fmt.Sprintf("%s-%d", s.Team, n), Title: title, Description: description,
		State: state, Labels: labels, UpdatedAt: s.now().UTC()}
	s.issues = append(s.issues, is)
	return is.Identifier
}

// Edit changes an issue with f; a change of State is recorded in its
// history at at (zero: now).
func (s *Server) Edit(identifier string, at time.Time, f func(*Issue)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	is := s.find(identifier)
	before := is.State
	f(is)
	if at.IsZero() {
		at = s.now().UTC()
	}
	if is.State != before {
		is.History = append(is.History, Move{From: before, To: is.State, CreatedAt: at, Actor: Member})
	}
	is.UpdatedAt = at
}

// RemoveState removes a workflow state from the team, as a team that
// never made one ("Blocked") has none.
func (s *Server) RemoveState(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.states = slices.DeleteFunc(s.states, func(st State) bool { return st.Name == name })
}

// Delete removes an issue, as deleting it in Linear does: asking for it
// is then "Entity not found".
func (s *Server) Delete(identifier string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.issues = slices.DeleteFunc(s.issues, func(is *Issue) bool { return is.Identifier == identifier })
}

// AddComment adds a comment on an issue by the user with id user (a
// member: Member, "user-ben"; anyone else is outside the team).
func (s *Server) AddComment(identifier, user, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	is := s.find(identifier)
	now := s.now().UTC()
	is.Comments = append(is.Comments, Comment{Body: body, CreatedAt: now, User: user})
	is.UpdatedAt = now
}

// Issue is a copy of an issue.
func (s *Server) Issue(identifier string) Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	is := s.find(identifier)
	if is == nil {
		return Issue{}
	}
	c := *is
	c.Comments, c.History, c.Attachments = slices.Clone(c.Comments), slices.Clone(c.History), slices.Clone(c.Attachments)
	return c
}

// SetFault makes the next requests fail with f (nil clears it).
func (s *Server) SetFault(f *Fault) { s.mu.Lock(); s.fault = f; s.mu.Unlock() }

// Requests are the operation names served so far.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

func (s *Server) find(id string) *Issue {
	for _, is := range s.issues {
		if is.ID == id || is.Identifier == id {
			return is
		}
	}
	return nil
}

func (s *Server) stateOf(name string) State {
	for _, st := range s.states {
		if st.Name == name {
			return st
		}
	}
	return State{}
}

type request struct {
	Query         string          `json:"query"`
	OperationName string          `json:"operationName"`
	Variables     json.RawMessage `json:"variables"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var req request
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil || req.Query == "" {
		s.fail(w, http.StatusBadRequest, "GRAPHQL_PARSE_FAILED", "a POST of {query, variables} is expected", nil)
		return
	}
	s.requests = append(s.requests, req.OperationName)
	if s.faulted(w, req) {
		return
	}
	if r.Header.Get("Authorization") != s.Key {
		s.fail(w, http.StatusBadRequest, "AUTHENTICATION_ERROR", "Authentication required, not authenticated", nil)
		return
	}
	data, err := s.operation(req)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"data": nil, "errors": []map[string]any{{"message": err.Error(), "extensions": map[string]string{"code": "INVALID_INPUT"}}}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": data})
}

func (s *Server) faulted(w http.ResponseWriter, req request) bool {
	f := s.fault
	if f == nil || f.Op != "" && f.Op != req.OperationName {
		return false
	}
	if f.After != "" {
		var v struct{ After string }
		if json.Unmarshal(req.Variables, &v); v.After != f.After {
			return false
		}
	}
	if f.Count > 0 {
		if f.Count--; f.Count == 0 {
			s.fault = nil
		}
	}
	if f.Drop && standin.Drop(w) {
		return true
	}
	s.fail(w, f.Status, f.Code, strings.ToLower(f.Code), f.Header)
	return true
}

func (s *Server) fail(w http.ResponseWriter, status int, code, msg string, h http.Header) {
	if status == 0 {
		status = http.StatusBadRequest
	}
	for k, v := range h {
		w.Header()[k] = v
	}
	writeJSON(w, status, map[string]any{"errors": []map[string]any{{"message": msg, "extensions": map[string]string{"code": code}}}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	if w.Header().Get("X-RateLimit-Requests-Remaining") == "" {
		w.Header().Set("X-RateLimit-Requests-Remaining", "1499")
		w.Header().Set("X-RateLimit-Requests-Reset", strconv.FormatInt(time.Now().Add(time.Hour).UnixMilli(), 10))
	}
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
