#!/usr/bin/env bash
# Artemis's build of the fencing kit's exercise: grades the student's repository with the kit's hidden tests and leaves
# one surefire-style XML per graded test class in target/surefire-reports, where Artemis's build collects results.
#
# Artemis runs this in the exercise's build image (Dockerfile beside it: the kit built in /kit), with the tests
# repository checked out in the working folder and the student's repository in assignment/. The grading policy is the
# tests repository's grader/grading-policy.yml, so a change of points there counts from the next build on; a change of
# the hidden tests needs the image built again.
#
# It exits 0 whenever grading ran, whatever the score: the XML carries the result. It exits non-zero, with no XML, when
# grading could not run (etcd did not answer), which Artemis shows as a failed build, not as a score.
#
# TESTING_DIR (default /var/tmp/testing-dir) is the working folder; KIT_DIR (default /kit) the built kit;
# KIT_TIME_LIMIT (default 200 s) the grader's own limit for the submission, under the exercise's build timeout (240 s).
set -uo pipefail
testing=${TESTING_DIR:-/var/tmp/testing-dir}
kit=${KIT_DIR:-/kit}
# Java cannot open a non-ASCII file name under the POSIX locale a container starts with.
export LC_ALL=C.UTF-8

cd "$testing" || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
submission=$(bash "$kit/grader/templates/layout.sh" "$testing/assignment" "$work") || exit 1
policy=()
if [ -f "$testing/grader/grading-policy.yml" ]; then
  policy=(--policy "$testing/grader/grading-policy.yml")
fi

(cd "$kit" && java @grader/tool/target/launcher/grade.args -Dfencing.grader.limits.run-seconds="${KIT_TIME_LIMIT:-200}" \
  fencing.grader.cli.GradeCommand "$submission" --out "$work/report" --platform artemis "${policy[@]}") >"$work/grade.log" 2>&1
status=$?
# The build log is the student's to read: summary.md is the student's file (the staff's is staff-notes.md, left out).
if [ -f "$work/report/summary.md" ]; then
  cat "$work/report/summary.md"
else
  cat "$work/grade.log"
fi
rm -rf target/surefire-reports
mkdir -p target/surefire-reports
if [ -d "$work/report/artemis/surefire-reports" ]; then
  cp "$work/report/artemis/surefire-reports/"*.xml target/surefire-reports/
fi
exit "$status"
