package linear

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/source"
)

// Send performs one write-back, safe to replay: a comment carries its
// marker and a replay that finds it posts nothing; a state change and an
// attachment (unique per URL on an issue) are the same when made twice.
func (c *Client) Send(ctx context.Context, w source.Write) (source.Sent, error) {
	switch w.Kind {
	case source.WriteComment:
		return c.comment(ctx, w)
	case source.WriteState:
		id, err := c.stateID(ctx, w.State)
		if source.EntityLevel(err) && w.State == source.StateBlocked {
			// A team without a Blocked state: the block's comment is
			// written already; the issue gets the label instead.
			if err := c.addLabel(ctx, w.Ref.ID, blockedLabel); err != nil {
				return source.Sent{}, err
			}
			return source.Sent{Note: fmt.Sprintf("team %s has no workflow state %q: a blocked task's issue gets the label %q instead", c.cfg.Team, source.StateBlocked, blockedLabel)}, nil
		}
		if err != nil {
			return source.Sent{}, err
		}
		resp, err := MoveIssue(ctx, c.gql, w.Ref.ID, id)
		if err != nil {
			return source.Sent{}, apiError(err)
		}
		if !resp.IssueUpdate.Success {
			return source.Sent{}, &source.APIError{Msg: "issueUpdate did not succeed"}
		}
		return source.Sent{}, nil
	case source.WriteClose:
		// The comment first: a replay finds it by its marker.
		sent, err := c.comment(ctx, w)
		if err != nil {
			return sent, err
		}
		st, err := completedState(ctx, c.gql, c.cfg.Team)
		if err != nil {
			return sent, apiError(err)
		}
		if len(st.WorkflowStates.Nodes) == 0 {
			return sent, &source.APIError{Status: http.StatusUnprocessableEntity, Msg: fmt.Sprintf("team %s has no completed workflow state", c.cfg.Team)}
		}
		resp, err := MoveIssue(ctx, c.gql, w.Ref.ID, st.WorkflowStates.Nodes[0].ID)
		if err != nil {
			return sent, apiError(err)
		}
		if !resp.IssueUpdate.Success {
			return sent, &source.APIError{Msg: "issueUpdate did not succeed"}
		}
		return sent, nil
	case source.WriteAttach:
		resp, err := Attach(ctx, c.gql, w.Ref.ID, w.Target, "Pull request: "+w.Text)
		if err != nil {
			return source.Sent{}, apiError(err)
		}
		return source.Sent{URL: resp.AttachmentCreate.Attachment.Url}, nil
	}
	return source.Sent{}, &source.APIError{Status: http.StatusUnprocessableEntity, Msg: fmt.Sprintf("Linear takes no %s write", w.Kind)}
}

func (c *Client) comment(ctx context.Context, w source.Write) (source.Sent, error) {
	mark := source.Marker(w.Key)
	if w.Tried {
		act, err := Activity(ctx, c.gql, w.Ref.ID)
		if err != nil {
			return source.Sent{}, apiError(err)
		}
		for _, cm := range act.Issue.Comments.Nodes {
			if strings.Contains(cm.Body, mark) {
				return source.Sent{}, nil
			}
		}
	}
	resp, err := Comment(ctx, c.gql, w.Ref.ID, w.Text+"\n\n"+mark)
	if err != nil {
		return source.Sent{}, apiError(err)
	}
	return source.Sent{URL: resp.CommentCreate.Comment.Url}, nil
}

// blockedLabel marks a blocked task's issue in a team without a Blocked
// state.
const blockedLabel = "blocked"

// addLabel adds the team's label name to issue id, making the label when
// the team has none.
func (c *Client) addLabel(ctx context.Context, issue, name string) error {
	labels, err := teamLabels(ctx, c.gql, c.cfg.Team, name)
	if err != nil {
		return apiError(err)
	}
	var labelID string
	if len(labels.IssueLabels.Nodes) > 0 {
		labelID = labels.IssueLabels.Nodes[0].ID
	} else {
		team, err := Team(ctx, c.gql, c.cfg.Team)
		if err != nil {
			return apiError(err)
		}
		if len(team.Teams.Nodes) == 0 {
			return &source.APIError{Status: http.StatusNotFound, Msg: "no team with key " + c.cfg.Team}
		}
		made, err := createLabel(ctx, c.gql, team.Teams.Nodes[0].Id, name)
		if err != nil {
			return apiError(err)
		}
		labelID = made.IssueLabelCreate.IssueLabel.ID
	}
	added, err := addLabel(ctx, c.gql, issue, labelID)
	if err != nil {
		return apiError(err)
	}
	if !added.IssueAddLabel.Success {
		return &source.APIError{Msg: "issueAddLabel did not succeed"}
	}
	return nil
}

// stateID is the id of the team's workflow state name; a team without it
// refuses the write for good.
func (c *Client) stateID(ctx context.Context, name string) (string, error) {
	c.mu.Lock()
	id, ok := c.states[name]
	c.mu.Unlock()
	if ok {
		return id, nil
	}
	resp, err := States(ctx, c.gql, c.cfg.Team, name)
	if err != nil {
		return "", apiError(err)
	}
	if len(resp.WorkflowStates.Nodes) == 0 {
		return "", &source.APIError{Status: http.StatusUnprocessableEntity, Msg: fmt.Sprintf("team %s has no workflow state %q", c.cfg.Team, name)}
	}
	id = resp.WorkflowStates.Nodes[0].Id
	c.mu.Lock()
	c.states[name] = id
	c.mu.Unlock()
	return id, nil
}

// ownStates are the states the station moves an issue to itself: moving
// there is not the agent's life.
var ownStates = []string{source.StateInProgress, source.StateBlocked}

// Comments are the comments on the issue after since by members of the
// team, oldest first, not the station's.
func (c *Client) Comments(ctx context.Context, ref supervisor.External, since time.Time) ([]source.Comment, error) {
	resp, err := activityBy(ctx, c.gql, ref.ID)
	if err != nil {
		return nil, apiError(err)
	}
	member := map[string]bool{}
	for _, m := range resp.Issue.Team.Members.Nodes {
		member[m.ID] = true
	}
	var out []source.Comment
	for _, cm := range resp.Issue.Comments.Nodes {
		u := cm.User
		if cm.CreatedAt.After(since) && u != nil && member[u.ID] && u.ID != resp.Viewer.ID && !strings.Contains(cm.Body, "<!-- buildstation:") {
			out = append(out, source.Comment{At: cm.CreatedAt, Author: "a team member", Body: cm.Body})
		}
	}
	slices.SortFunc(out, func(a, b source.Comment) int { return a.At.Compare(b.At) })
	return out, nil
}

// Activity is the newest comment or state change on the issue after
// since by a member of the team (people who can act on it: not someone
// outside the team, not an integration), other than the station's own:
// neither by the key's own user nor carrying its marker, nor a move to a
// state the station sets.
func (c *Client) Activity(ctx context.Context, ref supervisor.External, since time.Time) (source.Activity, bool, error) {
	resp, err := activityBy(ctx, c.gql, ref.ID)
	if err != nil {
		return source.Activity{}, false, apiError(err)
	}
	member := map[string]bool{}
	for _, m := range resp.Issue.Team.Members.Nodes {
		member[m.ID] = true
	}
	acts := func(u *userRef) bool { return u != nil && member[u.ID] && u.ID != resp.Viewer.ID }
	var best source.Activity
	for _, cm := range resp.Issue.Comments.Nodes {
		if cm.CreatedAt.After(since) && cm.CreatedAt.After(best.At) && acts(cm.User) && !strings.Contains(cm.Body, "<!-- buildstation:") {
			best = source.Activity{At: cm.CreatedAt, Detail: "Linear " + ref.ID + " has a new comment"}
		}
	}
	for _, h := range resp.Issue.History.Nodes {
		to := h.ToState.Name
		if to == "" || slices.Contains(ownStates, to) || !h.CreatedAt.After(since) || !h.CreatedAt.After(best.At) || !acts(h.Actor) {
			continue
		}
		best = source.Activity{At: h.CreatedAt, Detail: "Linear " + ref.ID + " moved to " + to}
	}
	return best, !best.At.IsZero(), nil
}
