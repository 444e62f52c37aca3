package apitest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// frozen are the methods the fake had when it was frozen.
const frozen = `Accept AddConsole AddProject AddSession AddTask AgentAsk AgentBlock AgentCLIs
AgentComplete AgentHook AgentProgress AgentReview AgentStatus Attach Block Calls Cancel Decide Fail
History Merge Nudge PauseProject Projects Publish PutProject RemoveProject Requeue RequeueAnywhere ResumeProject
Send Session SessionByToken SessionProof Sessions SetProjectSettings SetTaskState SetTranscript Status
Subscribe Subscribed Task TaskCost TaskDiff TaskWork Tasks Transcript`

// TestFakeIsFrozen fails when the fake grows a method: a new verb is
// tested over the real station (Board), so the fake never has to follow
// the API, and a verb costs no edit here.
func TestFakeIsFrozen(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(frozen)
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() {
				continue
			}
			star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
			if !ok || star.X.(*ast.Ident).Name != "Station" {
				continue
			}
			if !slices.Contains(want, fn.Name.Name) {
				t.Errorf("the fake grew %s; test a new verb over the real station with apitest.Board instead", fn.Name.Name)
			}
		}
	}
}
