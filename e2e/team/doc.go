// Package team is the chaos suite for stations sharing a PostgreSQL board:
// three real stations (buildstation daemon subprocesses), their own
// throwaway PostgreSQL cluster (stopped and restarted at will), a TCP relay
// per station that the test turns into a black hole or a refusal to stand
// in for a network partition, and shell agents that log when they start,
// under which lease epoch, and which completions were acknowledged.
//
// After each scenario it checks the guarantees docs/team.md states: no task
// runs twice at once, no project runs more agents than the board's cap, no
// slot stays stranded longer than lease + grace once the fault heals, every
// acknowledged completion is on the board, and no agent outlives its
// station. It needs the server binaries .ci/postgres.sh exports
// (BUILDSTATION_TEST_PG_BIN); without them it skips, except in CI.
package team
