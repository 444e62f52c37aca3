package linear

import (
	"context"
	"time"

	"github.com/Khan/genqlient/graphql"
)

// The operations in this file are written by hand, not generated:
// genqlient v0.8.1's generator does not build with this Go toolchain (its
// golang.org/x/tools is too old). They use only fields Linear documents
// (Comment.user, IssueHistory.actor, Issue.team, Team.members, Query.viewer),
// added to schema.graphql beside the generated ones.

// activityByOperation is what happened on an issue and who did it, with
// the team's members and the key's own user, so that only people who can
// act on the issue count and the station's own writes never do.
const activityByOperation = `
query ActivityBy ($id: String!) {
	issue(id: $id) {
		comments(first: 50) { nodes { body createdAt user { id } } }
		history(first: 50) { nodes { createdAt actor { id } fromState { name } toState { name } } }
		team { members(first: 250) { nodes { id } } }
	}
	viewer { id }
}
`

type userRef struct {
	ID string `json:"id"`
}

type activityByResponse struct {
	Issue struct {
		Comments struct {
			Nodes []struct {
				Body      string    `json:"body"`
				CreatedAt time.Time `json:"createdAt"`
				User      *userRef  `json:"user"`
			} `json:"nodes"`
		} `json:"comments"`
		History struct {
			Nodes []struct {
				CreatedAt time.Time `json:"createdAt"`
				Actor     *userRef  `json:"actor"`
				FromState struct {
					Name string `json:"name"`
				} `json:"fromState"`
				ToState struct {
					Name string `json:"name"`
				} `json:"toState"`
			} `json:"nodes"`
		} `json:"history"`
		Team struct {
			Members struct {
				Nodes []userRef `json:"nodes"`
			} `json:"members"`
		} `json:"team"`
	} `json:"issue"`
	Viewer userRef `json:"viewer"`
}

func activityBy(ctx context.Context, c graphql.Client, id string) (*activityByResponse, error) {
	out := &activityByResponse{}
	err := c.MakeRequest(ctx, &graphql.Request{OpName: "ActivityBy", Query: activityByOperation, Variables: map[string]any{"id": id}},
		&graphql.Response{Data: out})
	return out, err
}

// teamLabelsOperation finds a team's label by name.
const teamLabelsOperation = `
query TeamLabels ($team: String!, $name: String!) {
	issueLabels(filter: {team: {key: {eq: $team}}, name: {eq: $name}}, first: 1) { nodes { id name } }
}
`

type teamLabelsResponse struct {
	IssueLabels struct {
		Nodes []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"nodes"`
	} `json:"issueLabels"`
}

func teamLabels(ctx context.Context, c graphql.Client, team, name string) (*teamLabelsResponse, error) {
	out := &teamLabelsResponse{}
	err := c.MakeRequest(ctx, &graphql.Request{OpName: "TeamLabels", Query: teamLabelsOperation, Variables: map[string]any{"team": team, "name": name}},
		&graphql.Response{Data: out})
	return out, err
}

// createLabelOperation makes a team's label.
const createLabelOperation = `
mutation CreateLabel ($teamId: String!, $name: String!) {
	issueLabelCreate(input: {teamId: $teamId, name: $name}) { success issueLabel { id } }
}
`

type createLabelResponse struct {
	IssueLabelCreate struct {
		Success    bool    `json:"success"`
		IssueLabel userRef `json:"issueLabel"`
	} `json:"issueLabelCreate"`
}

func createLabel(ctx context.Context, c graphql.Client, teamID, name string) (*createLabelResponse, error) {
	out := &createLabelResponse{}
	err := c.MakeRequest(ctx, &graphql.Request{OpName: "CreateLabel", Query: createLabelOperation, Variables: map[string]any{"teamId": teamID, "name": name}},
		&graphql.Response{Data: out})
	return out, err
}

// addLabelOperation adds a label to an issue.
const addLabelOperation = `
mutation AddLabel ($id: String!, $labelId: String!) {
	issueAddLabel(id: $id, labelId: $labelId) { success }
}
`

type addLabelResponse struct {
	IssueAddLabel struct {
		Success bool `json:"success"`
	} `json:"issueAddLabel"`
}

func addLabel(ctx context.Context, c graphql.Client, issue, labelID string) (*addLabelResponse, error) {
	out := &addLabelResponse{}
	err := c.MakeRequest(ctx, &graphql.Request{OpName: "AddLabel", Query: addLabelOperation, Variables: map[string]any{"id": issue, "labelId": labelID}},
		&graphql.Response{Data: out})
	return out, err
}

// completedStateOperation finds the team's completed state (Linear's
// WorkflowState.type "completed"; a team names it as it likes: Done,
// Shipped), where an issue goes when its pull request was merged.
const completedStateOperation = `
query CompletedState ($team: String!) {
	workflowStates(filter: {team: {key: {eq: $team}}, type: {eq: "completed"}}, first: 1) { nodes { id name } }
}
`

type completedStateResponse struct {
	WorkflowStates struct {
		Nodes []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"nodes"`
	} `json:"workflowStates"`
}

func completedState(ctx context.Context, c graphql.Client, team string) (*completedStateResponse, error) {
	out := &completedStateResponse{}
	err := c.MakeRequest(ctx, &graphql.Request{OpName: "CompletedState", Query: completedStateOperation, Variables: map[string]any{"team": team}},
		&graphql.Response{Data: out})
	return out, err
}
