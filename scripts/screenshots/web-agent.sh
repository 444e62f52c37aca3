#!/bin/sh
# web-agent.sh: the screenshots' agent for the "web" project (a git
# repository with review = true), so that the board has cards in every
# column with real branches: it commits real work in its worktree, reports
# what it does through the agent hook (a Bash tool call, and the usage of a
# Claude-style transcript with known figures: the card's activity and
# cost), completes, and reviews. The task body's "mode: …" line picks what
# it does: done (complete, the review approves), review (complete, the
# review reads on), cost (stays at work, printing).
# $1 is the buildstation binary, $2 a folder for its notes and transcripts.
set -eu
bs=$1 marks=$2
g() { git -c user.name="Web Agent" -c user.email=agent@example.com -c commit.gpgsign=false "$@"; }
case "$BUILDSTATION_SESSION_ID" in
*.review)
	"$bs" agent status reviewing >/dev/null
	echo "Reviewing the diff of $BUILDSTATION_TASK_ID..."
	if [ "$(cat "$marks/$BUILDSTATION_TASK_ID" 2>/dev/null)" = review ]; then
		while :; do sleep 4; echo "reading internal/version/version.go"; done
	fi
	sleep 2
	"$bs" agent review approve --notes "reads well; the test covers it"
	exit 0
	;;
esac
mode=$(sed -n 's/^mode: //p' "$BUILDSTATION_PROMPT_FILE" | head -1)
echo "$mode" >"$marks/$BUILDSTATION_TASK_ID"
case "$mode" in
done)
	echo "Adding the /healthz handler..."
	mkdir -p internal/health
	printf 'package health\n\nimport "net/http"\n\n// Handler answers 200 while the server runs.\nfunc Handler(w http.ResponseWriter, _ *http.Request) {\n\tw.WriteHeader(http.StatusOK)\n}\n' >internal/health/health.go
	g add -A && g commit -qm "health: a /healthz handler"
	printf 'package health\n\nimport (\n\t"net/http/httptest"\n\t"testing"\n)\n\nfunc TestHandler(t *testing.T) {\n\tw := httptest.NewRecorder()\n\tHandler(w, nil)\n\tif w.Code != 200 {\n\t\tt.Fatal(w.Code)\n\t}\n}\n' >internal/health/health_test.go
	g add -A && g commit -qm "health: test the handler"
	sleep 2
	"$bs" agent complete --summary "added /healthz with a test"
	;;
review)
	echo "Adding the version endpoint..."
	mkdir -p internal/version
	printf 'package version\n\n// Version is set by the release build.\nvar Version = "dev"\n\n// String is the version a person reads.\nfunc String() string {\n\tif Version == "" {\n\t\treturn "unknown"\n\t}\n\treturn "web " + Version\n}\n' >internal/version/version.go
	g add -A && g commit -qm "version: the build's version, for /version"
	sleep 2
	"$bs" agent complete --summary "added /version"
	;;
cost)
	echo "Adding rate limiting to the API..."
	mkdir -p api
	printf 'package api\n\n// Limit is the requests a second one client may make.\nconst Limit = 20\n' >api/limit.go
	g add -A && g commit -qm "api: 20 requests a second per client"
	t="$marks/$BUILDSTATION_TASK_ID.jsonl"
	# Two answers of claude-sonnet-4-5 ($3 / $15 / $0.30 / $3.75 a million
	# tokens): $0.9159 + $0.6960 = $1.61; the last one's context is 112,200
	# of 200,000 tokens (56%).
	echo '{"type":"assistant","message":{"id":"m1","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":1800,"output_tokens":52000,"cache_read_input_tokens":60000,"cache_creation_input_tokens":30000}}}' >"$t"
	echo '{"type":"assistant","message":{"id":"m2","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":2200,"output_tokens":41000,"cache_read_input_tokens":98000,"cache_creation_input_tokens":12000}}}' >>"$t"
	printf '{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"api/limit.go"},"transcript_path":"%s"}' "$t" | "$bs" agent hook
	printf '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./api/..."}}' | "$bs" agent hook
	while :; do echo "=== RUN   TestLimit"; sleep 3; done
	;;
*)
	echo "no mode in the task body; nothing to do"
	"$bs" agent block --reason "the task body names no mode: done, review or cost"
	;;
esac
