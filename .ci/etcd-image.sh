#!/usr/bin/env bash
# Makes a Docker engine answer and builds the local etcd image the kit's container path uses in CI.
#
# No registry is reachable on the CI machines, so the image is made from Debian's etcd binaries:
# a tarball of /usr/bin/etcd, /usr/bin/etcdctl and the libraries ldd lists, passed to `docker import`.
# The kit runs the container with the command `etcd <flags>`, so the image needs PATH, not an ENTRYPOINT.
#
# Idempotent: with an engine answering and the image present it only checks and says so.
# Runs as root on Debian/Ubuntu. Usage: .ci/etcd-image.sh [image-tag]   (default local/etcd:3.4.23)
#
# Environment: DOCKERD_LOG   where a dockerd started here logs (default /var/log/fencing-dockerd.log);
#              it logs at debug level, so every API call can be checked afterwards: a pull is
#              "POST /vX/images/create?fromImage=...", while the import here is "...?fromSrc=-".
set -euo pipefail

IMAGE="${1:-local/etcd:3.4.23}"
DOCKERD_LOG="${DOCKERD_LOG:-/var/log/fencing-dockerd.log}"
ENGINE_WAIT_SECONDS=60

say() { printf 'etcd-image: %s\n' "$*"; }
die() { printf 'etcd-image: error: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (it may install packages and start dockerd)"

apt_updated=no
apt_install() {
    command -v apt-get >/dev/null || die "$* missing and no apt-get here: install it by hand"
    if [ "$apt_updated" = no ]; then
        say "apt-get update"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        apt_updated=yes
    fi
    say "installing $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

engine_answers() { command -v docker >/dev/null && docker info >/dev/null 2>&1; }

# 1. A Docker engine that answers.
if engine_answers; then
    say "a Docker engine answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo '?')); not starting one"
else
    if ! command -v dockerd >/dev/null || ! command -v docker >/dev/null; then
        apt_install docker.io
    fi
    if pgrep -x dockerd >/dev/null; then
        say "dockerd is running but not answering yet; waiting for it"
    else
        say "starting dockerd in the background, log: $DOCKERD_LOG"
        mkdir -p "$(dirname "$DOCKERD_LOG")"
        # setsid: the daemon must not die with this script's session; CI stops it when the job ends.
        setsid nohup dockerd --debug >>"$DOCKERD_LOG" 2>&1 </dev/null &
        say "dockerd pid $!"
    fi
    waited=0
    until engine_answers; do
        if [ "$waited" -ge "$ENGINE_WAIT_SECONDS" ]; then
            tail -n 30 "$DOCKERD_LOG" >&2 || true
            die "no Docker engine answered within ${ENGINE_WAIT_SECONDS} s (log above: $DOCKERD_LOG)"
        fi
        if ! pgrep -x dockerd >/dev/null; then
            tail -n 30 "$DOCKERD_LOG" >&2 || true
            die "dockerd exited (log above: $DOCKERD_LOG)"
        fi
        sleep 1
        waited=$((waited + 1))
    done
    say "Docker engine $(docker version --format '{{.Server.Version}}') answers after ~${waited} s"
fi

# 2. The image, unless it is already there.
if docker image inspect "$IMAGE" >/dev/null 2>&1; then
    say "image $IMAGE already present ($(docker image inspect --format '{{.Id}}' "$IMAGE" | cut -c1-19)); nothing to build"
    exit 0
fi

missing=()
[ -x /usr/bin/etcd ] || missing+=(etcd-server)
[ -x /usr/bin/etcdctl ] || missing+=(etcd-client)
[ "${#missing[@]}" -eq 0 ] || apt_install "${missing[@]}"

stage="$(mktemp -d /tmp/etcd-image.XXXXXX)"
trap 'rm -rf "$stage"' EXIT

copy() { # copies a file's content (symlinks followed) to the same path inside the image
    mkdir -p "$stage$(dirname "$1")"
    cp -L "$1" "$stage$1"
}
for binary in /usr/bin/etcd /usr/bin/etcdctl; do
    copy "$binary"
    # ldd lines: "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" and "/lib64/ld-linux-x86-64.so.2 (0x...)".
    for lib in $(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
        [ -e "$stage$lib" ] || copy "$lib"
    done
done
# etcd's data dir lives under /tmp inside the container.
mkdir -p "$stage/tmp" && chmod 1777 "$stage/tmp"

say "packing: $(cd "$stage" && find . -type f | sed 's|^\.||' | sort | tr '\n' ' ')"
tar -C "$stage" --owner=0 --group=0 -cf - . \
    | docker import --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
        --message "Debian $(/usr/bin/etcd --version | head -n 1)" - "$IMAGE" >/dev/null
say "imported $IMAGE ($(docker image inspect --format '{{.Id}}' "$IMAGE" | cut -c1-19))"

# The kit runs the image as `etcd <flags>`; check that command resolves and the binary runs.
say "check: $(docker run --rm --network none "$IMAGE" etcd --version | head -n 1)"
