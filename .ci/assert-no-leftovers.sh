#!/usr/bin/env bash
# Fails when a test run left something behind or pulled an image; run it after the tests, also after failed ones.
#
# Checks: no etcd process started by the kit outliving its JVM (their data dirs are fencing-etcd-*),
# no such data dir left in the temp dir, no Testcontainers container, no image (tagged or a build's
# intermediate) that was not there when the run began (DOCKER_IMAGES_BEFORE, set by .ci/run), and no image pull in the log of
# a dockerd that .ci/etcd-image.sh started (a pull is "images/create?fromImage=", the import "?fromSrc=-"),
# from byte DOCKERD_LOG_OFFSET on (what the log held when the run began, set by .ci/run).
# A kit etcd that still has a JVM among its ancestors belongs to a run in progress (another job on a
# shared machine) and is left alone, and so is its data dir. What it finds, it reports and removes,
# so that the machine is clean for the next step.
set -uo pipefail

DOCKERD_LOG="${DOCKERD_LOG:-/var/log/fencing-dockerd.log}"
# Only what this run logged counts: the log outlives a run, and an earlier run's pull on the same machine is not ours.
DOCKERD_LOG_OFFSET="${DOCKERD_LOG_OFFSET:-0}"
TMP="${TMPDIR:-/tmp}"
found=0

say() { printf 'no-leftovers: %s\n' "$*"; }

has_java_ancestor() {
    local pid=$1
    while [ -n "$pid" ] && [ "$pid" -gt 1 ]; do
        [ "$(ps -o comm= -p "$pid" 2>/dev/null)" = java ] && return 0
        pid="$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')"
    done
    return 1
}

kit_etcds() { pgrep -f -- '--data-dir [^ ]*fencing-etcd-' || true; }
unreferenced_dirs() {
    local dir
    for dir in $(find "$TMP" -maxdepth 1 -name 'fencing-etcd-*' 2>/dev/null); do
        pgrep -f -- "$dir" >/dev/null || echo "$dir"
    done
}

# Two looks 2 s apart: a watchdog needs a moment to stop the etcd of a JVM that just died, and a
# JVM creates its etcd's directory a moment before it starts etcd in it. Only what stays is left over.
first_etcds=" $(kit_etcds | tr '\n' ' ') "
first_dirs=" $(unreferenced_dirs | tr '\n' ' ') "
sleep 2

orphans=()
for pid in $(kit_etcds); do
    case "$first_etcds" in *" $pid "*) has_java_ancestor "$pid" || orphans+=("$pid") ;; esac
done
if [ "${#orphans[@]}" -gt 0 ]; then
    say "etcd processes (or their watchdogs) that outlived their JVM:"
    ps -o pid,ppid,etime,args -p "$(IFS=,; echo "${orphans[*]}")" | cut -c1-200 || true
    # Their directories are left over too, once they are stopped.
    first_dirs="$first_dirs $(ps -o args= -p "$(IFS=,; echo "${orphans[*]}")" | grep -o "$TMP/fencing-etcd-[0-9A-Za-z]*" | sort -u | tr '\n' ' ') "
    kill -CONT "${orphans[@]}" 2>/dev/null; kill "${orphans[@]}" 2>/dev/null; sleep 2; kill -KILL "${orphans[@]}" 2>/dev/null
    found=1
fi

for dir in $(unreferenced_dirs); do
    case "$first_dirs" in
        *" $dir "*)
            say "etcd data directory left behind: $dir"
            rm -rf "$dir"
            found=1
            ;;
    esac
done

if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    containers="$(docker ps -aq --filter label=org.testcontainers=true)"
    if [ -n "$containers" ]; then
        say "containers left behind:"
        docker ps -a --filter label=org.testcontainers=true
        docker rm -f $containers >/dev/null
        found=1
    fi
    if [ -n "${DOCKER_IMAGES_BEFORE+set}" ]; then
        images=()
        # Newest first, as docker lists them: a child before its parents, which cannot go while it is there.
        for id in $(docker images -aq --no-trunc | awk '!seen[$0]++'); do
            case " $DOCKER_IMAGES_BEFORE " in *" $id "*) ;; *) images+=("$id") ;; esac
        done
        if [ "${#images[@]}" -gt 0 ]; then
            say "images built during the run and left behind (a build stage or a test image not removed):"
            docker images -a --no-trunc --format '{{.ID}} {{.Repository}}:{{.Tag}} {{.CreatedSince}} {{.Size}}' \
                | grep -F -f <(printf '%s\n' "${images[@]}") || true
            for id in "${images[@]}"; do docker image rm -f "$id" >/dev/null 2>&1 || true; done
            found=1
        fi
    fi
fi

pulls=""
if [ -f "$DOCKERD_LOG" ]; then
    pulls=$(tail -c +"$((DOCKERD_LOG_OFFSET + 1))" "$DOCKERD_LOG" | grep 'images/create?fromImage=')
fi
if [ -n "$pulls" ]; then
    say "image pulls were attempted during this run (from $DOCKERD_LOG, after byte $DOCKERD_LOG_OFFSET):"
    printf '%s\n' "$pulls"
    found=1
fi

if [ "$found" = 0 ]; then
    say "clean: no kit etcd process, data directory, container or built image left, no image pulled"
fi
exit "$found"
