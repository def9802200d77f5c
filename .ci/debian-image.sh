#!/usr/bin/env bash
# Builds the local Debian base image the PrairieLearn template's image is built on in CI (no registry is reachable here).
#
# debootstrap writes a minimal bookworm from Debian's mirror; the machine's own local certificate authorities
# (/usr/local/share/ca-certificates, where a network that inspects TLS puts its own) are trusted in it as on the
# machine, as an organisation's base image would trust them; docker import makes it an image.
#
# Idempotent: with the image present it only says so. Runs as root. Usage: .ci/debian-image.sh [image-tag]
# (default local/debian:bookworm)
set -euo pipefail

IMAGE="${1:-local/debian:bookworm}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

say() { printf 'debian-image: %s\n' "$*"; }
die() { printf 'debian-image: error: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (debootstrap and docker import need it)"
docker info >/dev/null 2>&1 || die "no Docker engine answers (.ci/etcd-image.sh starts one)"
if docker image inspect "$IMAGE" >/dev/null 2>&1; then
    say "image $IMAGE already present; nothing to build"
    exit 0
fi
if ! command -v debootstrap >/dev/null; then
    say "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

root="$(mktemp -d /tmp/debian-image.XXXXXX)"
trap 'rm -rf "$root"' EXIT
say "debootstrap bookworm from $MIRROR"
debootstrap --variant=minbase --include=ca-certificates bookworm "$root" "$MIRROR" >/dev/null
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null
    say "trusting this machine's local authorities: $(cd /usr/local/share/ca-certificates && ls *.crt | tr '\n' ' ')"
fi
rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/archives/"*.deb
tar -C "$root" -c . | docker import - "$IMAGE" >/dev/null
say "imported $IMAGE ($(docker image inspect --format '{{.Id}}' "$IMAGE" | cut -c1-19))"
