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
