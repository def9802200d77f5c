#!/usr/bin/env bash
# Gradescope: prepares the autograder image once. The autograder zip holds the kit at its root with this file
# and run_autograder beside it (grader/templates/README.md says how to build it); Gradescope unpacks it into
# /autograder/source and runs this script there, as root, on its Ubuntu base image.
set -euo pipefail
cd "$(dirname "$0")"

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# etcd-client brings etcdctl (and etcdutl from 3.5), with which the restore drill's tests restore a snapshot.
apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless etcd-server etcd-client jq curl ca-certificates >/dev/null
# The package may start a system etcd; every grading run starts its own on free loopback ports instead.
if command -v systemctl >/dev/null 2>&1; then systemctl disable --now etcd >/dev/null 2>&1 || true; fi
if command -v service >/dev/null 2>&1; then service etcd stop >/dev/null 2>&1 || true; fi

# The kit starts etcd with flags of etcd 3.4 and later (Ubuntu 24.04 has 3.4; 22.04 has 3.3): on an older
# one, install the official release instead.
etcd_version=$(etcd --version 2>/dev/null | sed -n 's/^etcd Version: //p')
if [ -z "$etcd_version" ] || [ "$(printf '%s\n' 3.4.0 "$etcd_version" | sort -V | head -n 1)" != 3.4.0 ]; then
  release=v3.5.21
  echo "setup: etcd ${etcd_version:-missing} is older than 3.4: installing the official etcd $release"
  curl -fsSL "https://github.com/etcd-io/etcd/releases/download/$release/etcd-$release-linux-amd64.tar.gz" \
    | tar -xz -C /usr/local/bin --strip-components=1 "etcd-$release-linux-amd64/etcd" "etcd-$release-linux-amd64/etcdctl" \
        "etcd-$release-linux-amd64/etcdutl"
  hash -r
fi

java_home=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
export JAVA_HOME="$java_home"
chmod +x kit mvnw run_autograder

# Build the grader once: each run then starts the grading JVM directly, without Maven, from the argument file the
# build writes (grader/tool/target/launcher/grade.args).
./mvnw -q -B -pl grader/tool -am package -DskipTests

# Check the image: the reference solutions must get full marks here, with this JDK and this etcd, submitted as a
# student submits them: the repository's sources, ANSWERS.md and the lab's evidence (./kit study --case all's study/).
check=$(mktemp -d)
mkdir -p "$check/submission" "$check/results"
cp -r solutions/src "$check/submission/"
for file in ANSWERS.md evidence.json; do
  if [ -f "solutions/$file" ]; then cp "solutions/$file" "$check/submission/"; fi
done
for evidence in solutions/study/*/evidence.json; do
  target="$check/submission/${evidence#solutions/}"
  mkdir -p "$(dirname "$target")" && cp "$evidence" "$target"
done
AUTOGRADER_ROOT="$check" KIT_DIR="$PWD" bash ./run_autograder
if ! jq -e '.max_score > 0 and .score == .max_score' "$check/results/results.json" >/dev/null; then
  echo "setup: the reference solutions did not get full marks in this image:" >&2
  cat "$check/results/summary.md" >&2
  exit 1
fi
echo "setup: the reference solutions get full marks in this image"
rm -rf "$check"

# Students' code runs in this image: keep the reference solutions and the catalog's correct variants out of it.
rm -rf solutions grader/tests/catalog
