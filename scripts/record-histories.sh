#!/usr/bin/env bash
# Records the histories of the approval-gate, who-decides, versioning, session, sub-agent (signed too), seed-client,
# continued-run, cut-task, late-local-result, proven-requester, decision-task, breakpoint, webhook-after-close and messages-by-reference scenarios into test/histories/<set>/ for the replay suite. Keep older sets: they are what paused runs
# of older code look like.
set -euo pipefail
cd "$(dirname "$0")/.."
set_name="${1:?usage: npm run record-histories -- <set name, e.g. v3>}"
rm -rf "test/histories/$set_name"
HITL_RECORD_HISTORIES="$set_name" npx vitest run --project integration test/approval- test/who-decides test/quorum test/consent test/versioning test/sessions test/sub-agents test/sub-agent-signing test/seed-clients test/continued-runs test/continue-as-new-cut test/late-local-result test/proven-requester test/decision-task test/breakpoints test/webhook-after-close test/messages-by-reference
ls "test/histories/$set_name" | wc -l | xargs echo "recorded histories:"
