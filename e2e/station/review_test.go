//go:build linux

package station_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// reviewAgent codes in a work session and judges in a review session. A
// review asks for changes on attempt 1 and approves after.
const reviewAgent = `case "$BUILDSTATION_SESSION_ID" in
*.review)
  echo reviewing; buildstation agent status reviewing; sleep 2
  case "$BUILDSTATION_SESSION_ID" in
  *.1.review) buildstation agent review changes --notes "add a test";;
  *) grep -q "(attempt 2)" "$BUILDSTATION_PROMPT_FILE" && buildstation agent review approve --notes lgtm;;
  esac;;
*)
  echo coding; echo work >> work.txt; git add work.txt
  git -c user.name=a -c user.email=a@b commit -qm "work on $BUILDSTATION_TASK_ID"
  buildstation agent complete --summary "did it";;
esac
sleep 30`

func TestReviewRoundTrip(t *testing.T) {
	t.Parallel()
	repo := rig.GitRepo(t)
	cfg := "\n[[projects]]\nname = \"web\"\npath = " + strconv.Quote(repo) + "\nreview = true\nidle_window = \"30s\"\nblock_window = \"30s\"\n" +
		"command = [\"sh\", \"-c\", " + strconv.Quote(reviewAgent) + "]\n"
	s := rig.StartOn(t, rig.WriteConfig(t, cfg))
	id := strings.TrimSpace(s.Must("task", "add", "--project", "web", "--title", "feature"))

	// Coding completes → review; the review runs as its own counted state.
	rig.Eventually(t, 20*time.Second, func() bool {
		var st struct {
			Reviewing int `json:"reviewing"`
		}
		if err := json.Unmarshal([]byte(s.Must("status", "--json")), &st); err != nil || st.Reviewing != 1 {
			return false
		}
		if ss, ok := s.SessionOf(id); !ok || ss.State != "reviewing" || !strings.HasSuffix(ss.ID, ".review") {
			t.Fatalf("review session: %+v", ss)
		}
		if got := s.Task(id); got.State != "review" {
			t.Fatalf("task %s during its review", got.State)
		}
		return true
	}, "a review session counted as reviewing", s.Log)
	// Changes → back to todo with attempt 2 and the notes, then approve → done.
	got := s.WaitState(id, "done", 40*time.Second)
	if got.Attempt != 2 {
		t.Fatalf("attempt %d, want 2 (one review round asked for changes)", got.Attempt)
	}
	notes := strings.Join(got.Notes, "\n")
	if !strings.Contains(notes, "review asked for changes: add a test") || !strings.Contains(notes, "review approved: lgtm") {
		t.Fatalf("notes %q", notes)
	}
	var path []string
	for _, h := range got.History {
		path = append(path, h.To)
	}
	if want := "todo working review todo working review done"; strings.Join(path, " ") != want {
		t.Fatalf("history %v, want %s", path, want)
	}
	prompt := readFile(t, s.Home+"/logs/"+id+".1.review.prompt.md")
	if !strings.Contains(prompt, "git diff") || !strings.Contains(prompt, rig.TaskBranch(t, repo, id)) || !strings.Contains(prompt, "did it") {
		t.Fatalf("review prompt lacks the diff range or summary:\n%s", prompt)
	}
}
