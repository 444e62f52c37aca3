package ghapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

func (s *Server) route(w http.ResponseWriter, r *http.Request, p []string) {
	switch {
	case len(p) == 1 && p[0] == "" && r.Method == http.MethodGet:
		s.reply(w, http.StatusOK, map[string]any{"name": s.repo, "full_name": s.owner + "/" + s.repo, "default_branch": s.defBranch})
	case len(p) == 1 && p[0] == "issues" && r.Method == http.MethodGet:
		s.listIssues(w, r)
	case len(p) >= 2 && p[0] == "issues":
		n, err := strconv.Atoi(p[1])
		if err != nil || n < 1 || n > len(s.issues) {
			s.fail(w, http.StatusNotFound, "Not Found")
			return
		}
		if s.issues[n-1].Deleted {
			s.fail(w, http.StatusGone, "This issue was deleted")
			return
		}
		s.routeIssue(w, r, s.issues[n-1], p[2:])
	case len(p) == 1 && p[0] == "pulls" && r.Method == http.MethodPost:
		s.createPull(w, r)
	case len(p) == 1 && p[0] == "pulls" && r.Method == http.MethodGet:
		s.listPulls(w, r)
	case len(p) >= 2 && p[0] == "pulls":
		n, err := strconv.Atoi(p[1])
		if err != nil {
			s.fail(w, http.StatusNotFound, "Not Found")
			return
		}
		s.routePull(w, r, n, p[2:])
	case len(p) == 2 && p[0] == "branches" && r.Method == http.MethodGet:
		s.branch(w, p[1])
	case len(p) == 3 && p[0] == "commits" && p[2] == "check-runs" && r.Method == http.MethodGet:
		s.checkRuns(w, r, p[1])
	case len(p) == 4 && p[0] == "actions" && p[1] == "jobs" && p[3] == "logs" && r.Method == http.MethodGet:
		id, _ := strconv.Atoi(p[2])
		s.jobLogs(w, id)
	default:
		s.fail(w, http.StatusNotFound, "Not Found")
	}
}

func (s *Server) routeIssue(w http.ResponseWriter, r *http.Request, is *Issue, p []string) {
	switch {
	case len(p) == 0 && r.Method == http.MethodGet:
		s.replyTagged(w, r, s.issueJSON(is))
	case len(p) == 0 && r.Method == http.MethodPatch:
		s.editIssue(w, r, is)
	case len(p) == 1 && p[0] == "comments" && r.Method == http.MethodGet:
		var out []map[string]any
		for _, c := range is.Comments {
			out = append(out, s.commentJSON(is, c))
		}
		s.reply(w, http.StatusOK, orEmpty(out))
	case len(p) == 1 && p[0] == "comments" && r.Method == http.MethodPost:
		var in struct{ Body string }
		if json.NewDecoder(r.Body).Decode(&in) != nil || in.Body == "" {
			s.fail(w, http.StatusUnprocessableEntity, "Validation Failed")
			return
		}
		c := Comment{ID: 1000 + len(is.Comments) + 1, Body: in.Body, CreatedAt: s.now().UTC()}
		is.Comments = append(is.Comments, c)
		is.UpdatedAt = c.CreatedAt
		s.reply(w, http.StatusCreated, s.commentJSON(is, c))
	case len(p) == 1 && p[0] == "events" && r.Method == http.MethodGet:
		var out []map[string]any
		for _, e := range is.Events {
			out = append(out, map[string]any{"event": e.Event, "label": map[string]string{"name": e.Label}, "created_at": e.CreatedAt,
				"actor": userJSON(e.Actor, e.Bot)})
		}
		s.reply(w, http.StatusOK, orEmpty(out))
	case len(p) == 1 && p[0] == "labels" && r.Method == http.MethodPost:
		for _, l := range labelsIn(r) {
			if !slices.Contains(is.Labels, l) {
				is.Labels = append(is.Labels, l)
				is.Events = append(is.Events, Event{Event: "labeled", Label: l, CreatedAt: s.now().UTC()})
			}
		}
		is.UpdatedAt = s.now().UTC()
		s.reply(w, http.StatusOK, labelsJSON(is.Labels))
	case len(p) == 2 && p[0] == "labels" && r.Method == http.MethodDelete:
		i := slices.Index(is.Labels, p[1])
		if i < 0 {
			s.fail(w, http.StatusNotFound, "Label does not exist")
			return
		}
		is.Labels = slices.Delete(is.Labels, i, i+1)
		is.Events = append(is.Events, Event{Event: "unlabeled", Label: p[1], CreatedAt: s.now().UTC()})
		is.UpdatedAt = s.now().UTC()
		s.reply(w, http.StatusOK, labelsJSON(is.Labels))
	default:
		s.fail(w, http.StatusNotFound, "Not Found")
	}
}

// listIssues is GET /repos/{owner}/{repo}/issues as documented: state
// (open, closed, all; default open), labels (comma-separated, all must
// match), since (only issues updated at or after it, ISO 8601), sort
// (created, updated; default created) and direction (asc, desc; default
// desc), paged by per_page (default 30, at most 100) and page, with a Link
// header naming the next and last pages.
func (s *Server) listIssues(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	var want []string
	if l := q.Get("labels"); l != "" {
		want = strings.Split(l, ",")
	}
	var since time.Time
	if v := q.Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			s.fail(w, http.StatusUnprocessableEntity, "Validation Failed")
			return
		}
		since = t
	}
	var list []*Issue
	for _, is := range s.issues {
		if is.Deleted || state != "all" && is.State != state {
			continue
		}
		if slices.ContainsFunc(want, func(l string) bool { return !slices.Contains(is.Labels, l) }) {
			continue
		}
		if !since.IsZero() && is.UpdatedAt.Truncate(time.Second).Before(since) {
			continue
		}
		list = append(list, is)
	}
	key := func(is *Issue) time.Time { return time.Unix(int64(is.Number), 0) }
	if q.Get("sort") == "updated" {
		key = func(is *Issue) time.Time { return is.UpdatedAt }
	}
	slices.SortStableFunc(list, func(a, b *Issue) int { return key(a).Compare(key(b)) })
	if q.Get("direction") != "asc" {
		slices.Reverse(list)
	}
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 30
	}
	per = min(per, 100)
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	last := max(1, (len(list)+per-1)/per)
	out := []map[string]any{}
	for _, is := range list[min(len(list), (page-1)*per):min(len(list), page*per)] {
		out = append(out, s.issueJSON(is))
	}
	if page < last {
		link := func(p int) string {
			u := *r.URL
			v := u.Query()
			v.Set("page", strconv.Itoa(p))
			u.RawQuery = v.Encode()
			return "<" + s.URL + u.RequestURI() + ">"
		}
		w.Header().Set("Link", link(page+1)+`; rel="next", `+link(last)+`; rel="last"`)
	}
	s.replyTagged(w, r, out)
}

func (s *Server) issueJSON(is *Issue) map[string]any {
	link := is.HTMLURL
	if link == "" {
		link = s.issueURL(is.Number)
	}
	m := map[string]any{"id": 5000 + is.Number, "number": is.Number, "title": is.Title, "body": is.Body, "state": is.State,
		"html_url": link, "labels": labelsJSON(is.Labels), "updated_at": is.UpdatedAt.Format(time.RFC3339),
		"comments": len(is.Comments), "state_reason": nil}
	if is.StateReason != "" {
		m["state_reason"] = is.StateReason
	}
	if is.IsPull {
		m["pull_request"] = map[string]string{"html_url": s.pullURL(is.Number)}
	}
	return m
}

func (s *Server) commentJSON(is *Issue, c Comment) map[string]any {
	assoc := c.Association
	if assoc == "" {
		assoc = "MEMBER"
	}
	return map[string]any{"id": c.ID, "body": c.Body, "created_at": c.CreatedAt.Format(time.RFC3339), "updated_at": c.CreatedAt.Format(time.RFC3339),
		"html_url": fmt.Sprintf("%s#issuecomment-%d", s.issueURL(is.Number), c.ID), "user": userJSON(c.User, c.Bot), "author_association": assoc}
}

// userJSON is a simple user: login and type ("User" or "Bot").
func userJSON(login string, bot bool) map[string]any {
	if login == "" {
		login = Login
	}
	kind := "User"
	if bot {
		kind = "Bot"
	}
	return map[string]any{"login": login, "id": len(login) * 7919, "type": kind}
}

func labelsJSON(ls []string) []map[string]string {
	out := []map[string]string{}
	for _, l := range ls {
		out = append(out, map[string]string{"name": l})
	}
	return out
}

func (s *Server) pullURL(n int) string {
	return fmt.Sprintf("https://github.com/%s/%s/pull/%d", s.owner, s.repo, n)
}

// createPull is POST /repos/{owner}/{repo}/pulls; 422 when an open pull
// request has that head already. A pull request is an issue too, numbered
// with them, so its comments go through the issue routes.
func (s *Server) createPull(w http.ResponseWriter, r *http.Request) {
	var in struct{ Title, Head, Base, Body string }
	if json.NewDecoder(r.Body).Decode(&in) != nil || in.Title == "" || in.Head == "" || in.Base == "" {
		s.fail(w, http.StatusUnprocessableEntity, "Validation Failed")
		return
	}
	for _, p := range s.pulls {
		if p.Head == in.Head && p.State == "open" {
			s.fail(w, http.StatusUnprocessableEntity, "A pull request already exists for "+s.owner+":"+in.Head+".")
			return
		}
	}
	n := len(s.issues) + 1
	s.issues = append(s.issues, &Issue{Number: n, Title: in.Title, Body: in.Body, State: "open", UpdatedAt: s.now().UTC(), IsPull: true})
	p := &Pull{Number: n, Title: in.Title, Head: in.Head, Base: in.Base, Body: in.Body, State: "open", UpdatedAt: s.now().UTC()}
	s.pulls = append(s.pulls, p)
	s.reply(w, http.StatusCreated, s.pullJSON(p))
}

func (s *Server) pullJSON(p *Pull) map[string]any {
	m := map[string]any{"number": p.Number, "title": p.Title, "body": p.Body, "state": p.State, "html_url": s.pullURL(p.Number),
		"head": map[string]string{"ref": p.Head, "label": s.owner + ":" + p.Head, "sha": s.headOf(p)}, "base": map[string]string{"ref": p.Base},
		"merged": p.Merged, "merged_at": nil, "updated_at": p.UpdatedAt.Format(time.RFC3339),
		"review_comments": len(p.ReviewComments)}
	if p.Merged {
		m["merged_at"] = p.MergedAt.Format(time.RFC3339)
	}
	return m
}

// listPulls is GET /repos/{owner}/{repo}/pulls, filtered by head
// ("owner:branch").
func (s *Server) listPulls(w http.ResponseWriter, r *http.Request) {
	head := r.URL.Query().Get("head")
	out := []map[string]any{}
	for _, p := range s.pulls {
		if head == "" || head == s.owner+":"+p.Head {
			out = append(out, s.pullJSON(p))
		}
	}
	s.reply(w, http.StatusOK, out)
}

func orEmpty(v []map[string]any) []map[string]any {
	if v == nil {
		return []map[string]any{}
	}
	return v
}

// labelsIn reads the labels to add: the documented {"labels": [...]} or a
// bare array, which GitHub takes too.
func labelsIn(r *http.Request) []string {
	var raw json.RawMessage
	json.NewDecoder(r.Body).Decode(&raw)
	var in struct{ Labels []string }
	if json.Unmarshal(raw, &in) == nil && in.Labels != nil {
		return in.Labels
	}
	var list []string
	json.Unmarshal(raw, &list)
	return list
}
