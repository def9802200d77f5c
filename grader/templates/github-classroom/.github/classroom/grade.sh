#!/usr/bin/env bash
# GitHub Classroom: fetches the instructor's kit and grades this repository with its hidden tests.
# The report goes to ../fencing-report (results.json, summary.md), where autograding.json's checks read it.
set -euo pipefail
: "${KIT_REPOSITORY:?set the variable KIT_REPOSITORY to owner/name of the kit repository}"
: "${KIT_TOKEN:?set the secret KIT_TOKEN to a token that can read the kit}"

workspace=$(pwd)
kit="${RUNNER_TEMP:-/tmp}/fencing-kit"
report="$workspace/../fencing-report"
rm -rf "$kit" "$report"
git clone --quiet --depth 1 "https://x-access-token:${KIT_TOKEN}@github.com/${KIT_REPOSITORY}.git" "$kit"
"$kit/kit" grade "$workspace" --out "$report"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  # The part for staff (the explanations with their rubric) stays out of what the student sees.
  sed '/^## For staff/,$d' "$report/summary.md" >> "$GITHUB_STEP_SUMMARY"
fi
