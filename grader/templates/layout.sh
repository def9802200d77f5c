#!/usr/bin/env bash
# Lays out what a platform hands over as a submission the way the grader takes it: a folder like exercises/
# (src/main/java/fencing/...). Prints the folder to grade.
#
# Usage: layout.sh UPLOAD SCRATCH
#   UPLOAD   what the student submitted: a repository (a GitHub import or a zip), where the shallowest folder
#            holding src/main/java/fencing is found wherever it is, or loose .java files, each placed by the package
#            it declares (with ANSWERS.md, the lab's evidence.json, its study/ folder's evidence and study.zip, the
#            zipped study, taken to the top)
#   SCRATCH  an empty folder of the caller's, where loose files are laid out
# Nothing is changed in UPLOAD; the grader then reads only the student-owned files, never through a link.
set -euo pipefail
# Each "first line" below is sed -n 1p's, which reads to the end: head would end first, and the command before it would
# end with SIGPIPE, failing the script under pipefail when an upload makes it print more than a pipe holds.
upload=$1
scratch=$2

# The shallowest such folder: a whole handout holds the lab's sources in lab/src/main/java/fencing too.
layout=$(find "$upload" -type d -path '*/src/main/java/fencing' -not -path '*/target/*' -print \
  | awk -F/ '{ print NF "\t" $0 }' | sort -t "$(printf '\t')" -k1,1n -k2 | sed -n 1p | cut -f2-)
if [ -n "$layout" ]; then
  printf '%s\n' "${layout%/src/main/java/fencing}"
  exit 0
fi

graded="$scratch/submission"
mkdir -p "$graded/src/main/java"
find "$upload" -type f -name '*.java' -print0 | while IFS= read -r -d '' file; do
  package=$(sed -n 's/^[[:space:]]*package[[:space:]][[:space:]]*\(fencing[A-Za-z0-9_.]*\)[[:space:]]*;.*/\1/p' "$file" | sed -n 1p)
  if [ -n "$package" ]; then
    mkdir -p "$graded/src/main/java/${package//.//}"
    cp "$file" "$graded/src/main/java/${package//.//}/"
  fi
done
# The written answers, the lab run's evidence and the zipped study go to the top, where the grader looks for them; the
# grader itself reads study.zip, entry by entry, and refuses it whole if any entry could lead out of it.
for name in ANSWERS.md evidence.json study.zip; do
  found=$(find "$upload" -type f -name "$name" -print | sort | sed -n 1p)
  if [ -n "$found" ]; then
    cp "$found" "$graded/$name"
  fi
done
# And ./kit study --case all's evidence, one file per case folder of study/.
study=$(find "$upload" -type d -name study -not -path '*/target/*' -print | sort | sed -n 1p)
if [ -n "$study" ]; then
  find "$study" -mindepth 2 -maxdepth 2 -type f -name evidence.json -print0 | while IFS= read -r -d '' evidence; do
    case_dir=$(basename "$(dirname "$evidence")")
    mkdir -p "$graded/study/$case_dir" && cp "$evidence" "$graded/study/$case_dir/"
  done
fi
printf '%s\n' "$graded"
