package ghapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"
)

// What a pull request's reviewers and checks say, as GitHub's REST API
// documents it: GET /pulls/{n} (state, merged, merged_at, head.sha), GET
// /pulls/{n}/reviews (state APPROVED, CHANGES_REQUESTED, COMMENTED with
// submitted_at and author_association), GET /pulls/{n}/comments (review
// comments on a path and line), PUT /pulls/{n}/merge, GET
// /commits/{ref}/check-runs ({"total_count", "check_runs"}: status,
// conclusion, output, app) and GET /actions/jobs/{id}/logs (a 302 to the
// log's download address, plain text there).

// Review is one pull request review.
type Review struct {
	ID          int
	User        string // "" = a reviewer, "reviewer"
	Association string // "" = MEMBER
	State       string // APPROVED, CHANGES_REQUESTED, COMMENTED
	Body        string
	SubmittedAt time.Time
	CommitID    string
}

// ReviewComment is one review comment, on a line of a file.
type ReviewComment struct {
	ID          int
	User        string
	Association string
	Path        string
	Line        int
	Body        string
	CreatedAt   time.Time
}

// CheckRun is one check run on a commit; a GitHub Actions job's run has
// the job's id, and its log is served from /actions/jobs/{id}/logs.
type CheckRun struct {
	ID         int
	Name       string
	Status     string // queued, in_progress, completed
	Conclusion string // success, failure, timed_out, … (completed only)
	Summary    string // output.summary
	Log        string // the job's log; "" = not an Actions job
	Completed  time.Time
}

// SetHeads tells the stand-in where a branch's head is (the test reads its
// own remote): a pull request's head.sha, as GitHub knows it from the
// repository.
func (s *Server) SetHeads(f func(branch string) string) { s.mu.Lock(); s.heads = f; s.mu.Unlock() }

// AddReview submits a review on pull request n.
func (s *Server) AddReview(n int, r Review) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(n)
	r.ID = 7000 + len(p.Reviews) + 1
	p.UpdatedAt = s.now().UTC()
	if r.SubmittedAt.IsZero() {
		r.SubmittedAt = s.now().UTC()
	}
	if r.CommitID == "" {
		r.CommitID = s.headOf(p)
	}
	p.Reviews = append(p.Reviews, r)
}

// AddReviewComment adds a review comment on pull request n.
func (s *Server) AddReviewComment(n int, c ReviewComment) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(n)
	c.ID = 8000 + len(p.ReviewComments) + 1
	p.UpdatedAt = s.now().UTC()
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now().UTC()
	}
	p.ReviewComments = append(p.ReviewComments, c)
}

// AddCheckRun records a check run on commit sha.
func (s *Server) AddCheckRun(sha string, c CheckRun) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.checks == nil {
		s.checks = map[string][]CheckRun{}
	}
	c.ID = 90000 + len(s.checks[sha]) + 100*len(s.checks)
	if c.Status == "" {
		c.Status = "completed"
	}
	if c.Completed.IsZero() {
		c.Completed = s.now().UTC()
	}
	s.checks[sha] = append(s.checks[sha], c)
}

// Require makes branch's protection require the checks named (none: not
// protected), as GET /branches/{branch} shows it under
// protection.required_status_checks.
func (s *Server) Require(branch string, checks ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.required == nil {
		s.required = map[string][]string{}
	}
	s.required[branch] = checks
}

// branch is GET /branches/{branch}: its name, head and protection.
func (s *Server) branch(w http.ResponseWriter, name string) {
	if name != s.defBranch && s.required[name] == nil {
		s.fail(w, http.StatusNotFound, "Branch not found")
		return
	}
	req := s.required[name]
	m := map[string]any{"name": name, "commit": map[string]any{"sha": "0000000000000000000000000000000000000000"}, "protected": len(req) > 0,
		"protection": map[string]any{"enabled": len(req) > 0, "required_status_checks": map[string]any{"enforcement_level": "off", "contexts": []string{}, "checks": []any{}}}}
	if len(req) > 0 {
		var checks []map[string]any
		for _, c := range req {
			checks = append(checks, map[string]any{"context": c, "app_id": nil})
		}
		m["protection"] = map[string]any{"enabled": true, "required_status_checks": map[string]any{"enforcement_level": "non_admins", "contexts": req, "checks": checks}}
	}
	s.reply(w, http.StatusOK, m)
}

// Merge merges pull request n as a person's click does: closed, merged,
// and the issues its body closes with a keyword ("Closes #3") closed.
func (s *Server) Merge(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.merge(s.pull(n))
}

func (s *Server) pull(n int) *Pull {
	for _, p := range s.pulls {
		if p.Number == n {
			return p
		}
	}
	panic(fmt.Sprintf("ghapi: no pull request #%d", n))
}

func (s *Server) headOf(p *Pull) string {
	if s.heads == nil {
		return "0000000000000000000000000000000000000000"
	}
	return s.heads(p.Head)
}

var closesRE = regexp.MustCompile(`(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+#(\d+)`)

func (s *Server) merge(p *Pull) {
	now := s.now().UTC()
	p.State, p.Merged, p.MergedAt, p.UpdatedAt = "closed", true, now, now
	s.issues[p.Number-1].State, s.issues[p.Number-1].UpdatedAt = "closed", now
	for _, m := range closesRE.FindAllStringSubmatch(p.Body, -1) {
		if k, _ := strconv.Atoi(m[1]); k >= 1 && k <= len(s.issues) && !s.issues[k-1].IsPull {
			is := s.issues[k-1]
			is.State, is.StateReason, is.UpdatedAt = "closed", "completed", now
			is.Events = append(is.Events, Event{Event: "closed", CreatedAt: now})
		}
	}
}

// routePull answers /pulls/{n}/… .
func (s *Server) routePull(w http.ResponseWriter, r *http.Request, n int, rest []string) {
	var p *Pull
	for _, q := range s.pulls {
		if q.Number == n {
			p = q
		}
	}
	if p == nil {
		s.fail(w, http.StatusNotFound, "Not Found")
		return
	}
	switch {
	case len(rest) == 0 && r.Method == http.MethodGet:
		s.replyTagged(w, r, s.pullJSON(p))
	case len(rest) == 1 && rest[0] == "reviews" && r.Method == http.MethodGet:
		out := []map[string]any{}
		for _, v := range p.Reviews {
			out = append(out, map[string]any{"id": v.ID, "user": userJSON(orUser(v.User), false), "body": v.Body, "state": v.State,
				"submitted_at": v.SubmittedAt.Format(time.RFC3339), "commit_id": v.CommitID, "author_association": orMember(v.Association),
				"html_url": fmt.Sprintf("%s#pullrequestreview-%d", s.pullURL(n), v.ID)})
		}
		s.replyTagged(w, r, out)
	case len(rest) == 1 && rest[0] == "comments" && r.Method == http.MethodGet:
		out := []map[string]any{}
		for _, c := range p.ReviewComments {
			out = append(out, map[string]any{"id": c.ID, "user": userJSON(orUser(c.User), false), "body": c.Body, "path": c.Path,
				"line": c.Line, "created_at": c.CreatedAt.Format(time.RFC3339), "updated_at": c.CreatedAt.Format(time.RFC3339),
				"author_association": orMember(c.Association), "html_url": fmt.Sprintf("%s#discussion_r%d", s.pullURL(n), c.ID)})
		}
		s.replyTagged(w, r, out)
	case len(rest) == 1 && rest[0] == "merge" && r.Method == http.MethodPut:
		if p.Merged {
			s.fail(w, http.StatusMethodNotAllowed, "Pull Request is not mergeable")
			return
		}
		s.merge(p)
		s.reply(w, http.StatusOK, map[string]any{"merged": true, "message": "Pull Request successfully merged", "sha": s.headOf(p)})
	default:
		s.fail(w, http.StatusNotFound, "Not Found")
	}
}

// checkRuns is GET /commits/{ref}/check-runs.
func (s *Server) checkRuns(w http.ResponseWriter, r *http.Request, ref string) {
	out := []map[string]any{}
	for _, c := range s.checks[ref] {
		app := map[string]any{"slug": "some-ci", "name": "Some CI"}
		if c.Log != "" {
			app = map[string]any{"slug": "github-actions", "name": "GitHub Actions"}
		}
		m := map[string]any{"id": c.ID, "name": c.Name, "head_sha": ref, "status": c.Status, "app": app,
			"output":   map[string]any{"title": c.Name, "summary": c.Summary},
			"html_url": fmt.Sprintf("https://github.com/%s/%s/runs/%d", s.owner, s.repo, c.ID)}
		if c.Status == "completed" {
			m["conclusion"], m["completed_at"] = c.Conclusion, c.Completed.Format(time.RFC3339)
		}
		out = append(out, m)
	}
	s.replyTagged(w, r, map[string]any{"total_count": len(out), "check_runs": out})
}

// jobLogs is GET /actions/jobs/{id}/logs: a 302 to where the log is.
func (s *Server) jobLogs(w http.ResponseWriter, id int) {
	for _, cs := range s.checks {
		for _, c := range cs {
			if c.ID == id && c.Log != "" {
				s.rateHeaders(w, true)
				w.Header().Set("Location", fmt.Sprintf("%s/job-logs/%d", s.URL, id))
				w.WriteHeader(http.StatusFound)
				return
			}
		}
	}
	s.fail(w, http.StatusNotFound, "Not Found")
}

// jobLog serves a log at its download address (no token needed there,
// as GitHub's are signed URLs).
func (s *Server) jobLog(w http.ResponseWriter, id int) bool {
	for _, cs := range s.checks {
		for _, c := range cs {
			if c.ID == id && c.Log != "" {
				w.Header().Set("Content-Type", "text/plain")
				w.Write([]byte(c.Log))
				return true
			}
		}
	}
	return false
}

// editIssue is PATCH /issues/{n}: state (open, closed) and state_reason.
func (s *Server) editIssue(w http.ResponseWriter, r *http.Request, is *Issue) {
	var in struct {
		State       *string `json:"state"`
		StateReason *string `json:"state_reason"`
		Title       *string `json:"title"`
	}
	if json.NewDecoder(r.Body).Decode(&in) != nil {
		s.fail(w, http.StatusBadRequest, "Problems parsing JSON")
		return
	}
	now := s.now().UTC()
	if in.State != nil && *in.State != is.State {
		if *in.State != "open" && *in.State != "closed" {
			s.fail(w, http.StatusUnprocessableEntity, "Validation Failed")
			return
		}
		is.State = *in.State
		is.Events = append(is.Events, Event{Event: map[string]string{"open": "reopened", "closed": "closed"}[*in.State], CreatedAt: now})
	}
	if in.StateReason != nil {
		is.StateReason = *in.StateReason
	}
	if in.Title != nil {
		is.Title = *in.Title
	}
	is.UpdatedAt = now
	s.reply(w, http.StatusOK, s.issueJSON(is))
}

func orUser(u string) string {
	if u == "" {
		return "reviewer"
	}
	return u
}

func orMember(a string) string {
	if a == "" {
		return "MEMBER"
	}
	return a
}
