package ghapi

import (
	"crypto/sha256"
	"encoding/hex"
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

// Server is the stand-in. Its fields are guarded by mu; tests use the
// methods.
type Server struct {
	*httptest.Server
	Token string // the only token it accepts

	mu        sync.Mutex
	owner     string
	repo      string
	defBranch string
	issues    []*Issue
	pulls     []*Pull
	remaining int
	reset     time.Time
	fault     *Fault
	requests  []string // "GET /repos/…" in order, 304s too
	now       func() time.Time
	heads     func(branch string) string // a branch's head on the repository (SetHeads)
	checks    map[string][]CheckRun      // commit sha → its check runs
	required  map[string][]string        // a protected branch → the checks it requires
}

// Issue is an issue as the stand-in keeps it.
type Issue struct {
	Number    int
	Title     string
	Body      string
	State     string // "open" or "closed"
	Labels    []string
	Comments  []Comment
	Events    []Event
	UpdatedAt time.Time
	IsPull    bool
	HTMLURL   string // "" = https://github.com/{owner}/{repo}/issues/{n}
	Deleted   bool   // answered 410 Gone, left out of lists
	// StateReason is why a closed issue was closed: completed,
	// not_planned ("" while open).
	StateReason string
}

// Comment is one issue comment.
type Comment struct {
	ID        int
	Body      string
	CreatedAt time.Time
	User      string // its author's login ("" = the token's user)
	// Association is GitHub's author_association: OWNER, MEMBER,
	// COLLABORATOR, CONTRIBUTOR, FIRST_TIMER, NONE … ("" = MEMBER).
	Association string
	Bot         bool // the author is an app (user.type "Bot")
}

// Event is one issue event ("labeled", "closed", …).
type Event struct {
	Event     string
	Label     string
	CreatedAt time.Time
	Actor     string // who did it ("" = the token's user)
	Bot       bool
}

// Login is the login of the user the stand-in's token belongs to (GET
// /user), the author of what the station writes.
const Login = "station-bot"

// Pull is an opened pull request.
type Pull struct {
	Number         int
	Title          string
	Head           string
	Base           string
	Body           string
	State          string // open, closed
	Merged         bool
	MergedAt       time.Time
	Reviews        []Review
	ReviewComments []ReviewComment
	UpdatedAt      time.Time // moved by a review, a review comment, a merge
}

// Fault is what the next requests get instead of an answer.
type Fault struct {
	Status  int
	Message string
	Header  http.Header
	Drop    bool // close the connection without an answer: a network outage
	Count   int  // how many requests it answers; 0: until cleared
	// Match, when set, limits the fault to requests whose "path?query"
	// contains it ("&page=2"); NotMatch to those that do not contain it.
	Match, NotMatch string
	// Alternate answers every other request it matches (the first, the
	// third, …), so each page fails once and its retry goes through.
	Alternate bool
	hits      int
}

// New starts a stand-in for owner/repo that accepts token.
func New(owner, repo, token string) *Server {
	s := &Server{Token: token, owner: owner, repo: repo, defBranch: "main", remaining: 5000, now: time.Now}
	s.reset = s.now().Add(time.Hour)
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// APIURL is what a source's api_url is set to.
func (s *Server) APIURL() string { return s.URL + "/api/v3" }

// SetDefaultBranch sets the repository's default branch.
func (s *Server) SetDefaultBranch(b string) { s.mu.Lock(); s.defBranch = b; s.mu.Unlock() }

// AddIssue opens an issue with labels and returns its number.
func (s *Server) AddIssue(title, body string, labels ...string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.issues) + 1
	s.issues = append(s.issues, &Issue{Number: n, Title: title, Body: body, State: "open", Labels: labels, UpdatedAt: s.now().UTC()})
	return n
}

// Comment adds a comment on issue n by user, with GitHub's
// author_association for them (OWNER, MEMBER, COLLABORATOR, NONE …).
func (s *Server) Comment(n int, user, association, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	is := s.issues[n-1]
	c := Comment{ID: 1000 + len(is.Comments) + 1, Body: body, CreatedAt: s.now().UTC(), User: user, Association: association}
	is.Comments = append(is.Comments, c)
	is.UpdatedAt = c.CreatedAt
}

// Edit changes issue n with f (and its updated_at).
func (s *Server) Edit(n int, f func(*Issue)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s.issues[n-1])
	s.issues[n-1].UpdatedAt = s.now().UTC()
}

// Issue is a copy of issue n.
func (s *Server) Issue(n int) Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := *s.issues[n-1]
	c.Comments, c.Labels = slices.Clone(c.Comments), slices.Clone(c.Labels)
	return c
}

// Pulls are the pull requests opened.
func (s *Server) Pulls() []Pull {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Pull
	for _, p := range s.pulls {
		out = append(out, *p)
	}
	return out
}

// SetFault makes the next requests fail with f (nil clears it).
func (s *Server) SetFault(f *Fault) { s.mu.Lock(); s.fault = f; s.mu.Unlock() }

// Requests are the requests served so far, "METHOD path?query".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Remaining is the rate limit left.
func (s *Server) Remaining() int { s.mu.Lock(); defer s.mu.Unlock(); return s.remaining }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.Method+" "+r.URL.RequestURI())
	if s.faulted(w, r.URL.RequestURI()) {
		return
	}
	if id, ok := strings.CutPrefix(r.URL.Path, "/job-logs/"); ok {
		// A log's download address: a signed URL on another host at
		// GitHub, which needs no token.
		if n, err := strconv.Atoi(id); err == nil && s.jobLog(w, n) {
			return
		}
	}
	auth := r.Header.Get("Authorization")
	if auth != "Bearer "+s.Token && auth != "token "+s.Token {
		s.fail(w, http.StatusUnauthorized, "Bad credentials")
		return
	}
	if r.URL.Path == "/api/v3/user" && r.Method == http.MethodGet {
		s.reply(w, http.StatusOK, userJSON(Login, false))
		return
	}
	path, ok := strings.CutPrefix(r.URL.Path, "/api/v3/repos/"+s.owner+"/"+s.repo)
	if !ok {
		s.fail(w, http.StatusNotFound, "Not Found")
		return
	}
	s.route(w, r, strings.Split(strings.Trim(path, "/"), "/"))
}

// faulted answers with the fault set, if any.
func (s *Server) faulted(w http.ResponseWriter, uri string) bool {
	f := s.fault
	if f == nil || f.Match != "" && !strings.Contains(uri, f.Match) || f.NotMatch != "" && strings.Contains(uri, f.NotMatch) {
		return false
	}
	if f.Alternate {
		if f.hits++; f.hits%2 == 0 {
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
	s.rateHeaders(w, true)
	for k, v := range f.Header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.Status)
	json.NewEncoder(w).Encode(map[string]string{"message": f.Message, "documentation_url": "https://docs.github.com/rest"})
	return true
}

func (s *Server) rateHeaders(w http.ResponseWriter, used bool) {
	if used && s.remaining > 0 {
		s.remaining--
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", "5000")
	h.Set("X-RateLimit-Remaining", strconv.Itoa(s.remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(s.reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", "core")
}

func (s *Server) fail(w http.ResponseWriter, status int, msg string) {
	s.rateHeaders(w, true)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"message": msg, "documentation_url": "https://docs.github.com/rest"})
}

func (s *Server) reply(w http.ResponseWriter, status int, v any) {
	s.rateHeaders(w, true)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// replyTagged answers a GET with an ETag, or 304 when the client has it.
func (s *Server) replyTagged(w http.ResponseWriter, r *http.Request, v any) {
	js, _ := json.Marshal(v)
	sum := sha256.Sum256(js)
	etag := `W/"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		s.rateHeaders(w, false)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	s.rateHeaders(w, true)
	w.Header().Set("Content-Type", "application/json")
	w.Write(js)
}

func (s *Server) issueURL(n int) string {
	return fmt.Sprintf("https://github.com/%s/%s/issues/%d", s.owner, s.repo, n)
}

// Delete deletes issue n: GitHub then answers 410 Gone for it.
func (s *Server) Delete(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.issues[n-1].Deleted = true
}
