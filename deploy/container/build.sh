#!/usr/bin/env bash
# Builds Kiln's OCI image, localhost/kiln:latest, with Debian's debootstrap, podman and buildah; no image registry
# needed. One image for the API, the worker and the migrations: the command picks (`podman run … kiln api`).
#
# 1. kiln, release, with the Swift runtime linked in (--static-swift-stdlib), in its own build folder .build-image/.
# 2. The base: a minimal Debian (debootstrap --variant=minbase) with only the packages whose libraries the binary
#    links, ffmpeg, the fonts the videos and documents draw with, CA certificates and time zones; the kiln user
#    (10001); no Mesa drivers (ffmpeg's GL output needs them, encoding does not); imported with `podman import`.
#    Kept between runs while that package list is the same.
# 3. The image: the base plus the stripped binary, its resource bundles and migrations/, running as 10001 with its
#    state on a volume.
# Prints the image's size. Needs root (debootstrap, chroot) and Debian's debootstrap, podman, buildah and runc.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../local/env.sh
source "$here/../local/env.sh"
# shellcheck source=podman-env.sh
source "$here/podman-env.sh"
for tool in debootstrap podman buildah runc; do
  command -v "$tool" >/dev/null 2>&1 || kiln_die "$tool is not installed; run deploy/local/install-deps.sh --test-tools"
done
[[ $EUID -eq 0 ]] || kiln_die "building the image needs root (debootstrap, chroot, podman's store)"

cd "$KILN_ROOT"
echo "Building kiln (release, static Swift runtime) in .build-image/"
mkdir -p "$KILN_IMAGE_SCRATCH"
swift build -c release --static-swift-stdlib --scratch-path "$KILN_IMAGE_SCRATCH" --product kiln 2>&1 | tee "$KILN_IMAGE_SCRATCH/build.log"
# The release build sees what the debug one does not (an import only a test build uses): a warning fails it too.
kiln_fail_on_compiler_warnings "$KILN_IMAGE_SCRATCH/build.log" "the release build"
binary="$KILN_IMAGE_SCRATCH/release/kiln"
strip -o "$KILN_IMAGE_SCRATCH/kiln" "$binary"
# The release and commit the binary says it is (`kiln --version`: `1.0.0 (commit 0123456789ab)`), for the labels.
read -r version _ commit < <("$binary" --version | tr -d '()')
[[ -n $version && -n $commit ]] || kiln_die "kiln --version printed no release and commit"

# The Debian package of each shared library the binary needs (dpkg knows a file by its /usr or its / path).
linked_packages() {
  local library path
  ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | while read -r library; do
    path=$(realpath "$library")
    for candidate in "$library" "$path" "${path#/usr}" "/usr${library}"; do
      dpkg -S "$candidate" 2>/dev/null && break
    done | head -n 1 | cut -d: -f1
  done
}
mapfile -t linked < <(linked_packages "$binary" | sort -u)
((${#linked[@]})) || kiln_die "found no Debian package for the libraries kiln links"
packages=("${linked[@]}" ffmpeg fonts-inter fonts-noto-color-emoji fontconfig ca-certificates tzdata)
base_tag=$(printf '%s\n' "${packages[@]}" | sort -u | sha256sum | cut -c1-12)
base="localhost/kiln-base:$base_tag"

if podman image exists "$base"; then
  echo "Base image $base is up to date"
else
  rootfs="$KILN_IMAGE_SCRATCH/rootfs"
  rm -rf "$rootfs"
  echo "Building the base image from Debian bookworm (minbase + ${packages[*]})"
  debootstrap --variant=minbase --include="$(IFS=,; echo "${packages[*]}")" bookworm "$rootfs" http://deb.debian.org/debian
  chroot "$rootfs" useradd --system --uid 10001 --user-group --home-dir /var/lib/kiln --shell /usr/sbin/nologin kiln
  install -d -o 10001 -g 10001 -m 0750 "$rootfs/var/lib/kiln"
  install -d -m 0755 "$rootfs/etc/kiln"
  # ffmpeg's libavdevice depends on libGL, whose Mesa drivers pull in LLVM and Z3 (150 MB): ffmpeg only loads them
  # when it opens a GL context, which encoding never does (the image test encodes a video with it).
  chroot "$rootfs" dpkg --purge --force-depends libgl1-mesa-dri libglx-mesa0 libllvm15 libz3-4 >/dev/null
  # What no program in the image reads: package lists and caches, documentation, manual pages, translations.
  rm -rf "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/* \
    "$rootfs"/usr/share/doc "$rootfs"/usr/share/man "$rootfs"/usr/share/info "$rootfs"/usr/share/locale
  # Every library kiln and ffmpeg load resolves inside the base.
  for program in /usr/bin/ffmpeg; do
    if chroot "$rootfs" ldd "$program" | grep -q "not found"; then kiln_die "$program misses libraries in the base"; fi
  done
  tar --numeric-owner -C "$rootfs" -c . | podman import --quiet - "$base" >/dev/null
  rm -rf "$rootfs"
fi

container=$(buildah from --quiet "$base")
trap 'buildah rm "$container" >/dev/null 2>&1 || true' EXIT
buildah copy --quiet --chmod 0755 "$container" "$KILN_IMAGE_SCRATCH/kiln" /usr/local/bin/kiln >/dev/null
# The targets' resources (Lua scripts, openapi.json, …), which Bundle.module looks for beside the executable.
for bundle in "$KILN_IMAGE_SCRATCH"/release/*.resources; do
  buildah copy --quiet "$container" "$bundle" "/usr/local/bin/$(basename "$bundle")" >/dev/null
done
buildah copy --quiet --chmod 0644 "$container" migrations /usr/local/share/kiln/migrations >/dev/null
buildah run --network host "$container" -- sh -c '! ldd /usr/local/bin/kiln | grep "not found"' ||
  kiln_die "kiln misses libraries in the image"
buildah config \
  --user 10001:10001 --workingdir /var/lib/kiln --volume /var/lib/kiln \
  --entrypoint '["/usr/local/bin/kiln"]' --cmd '["--help"]' --stop-signal SIGTERM \
  --env KILN_MIGRATIONS_DIR=/usr/local/share/kiln/migrations --env KILN_OBJECT_ROOT=/var/lib/kiln/objects \
  --env KILN_POLICIES=/etc/kiln/policies.json --env KILN_PROVIDERS=/etc/kiln/providers.json \
  --label org.opencontainers.image.title=kiln \
  --label org.opencontainers.image.version="$version" --label org.opencontainers.image.revision="$commit" \
  --annotation org.opencontainers.image.title=kiln \
  --annotation org.opencontainers.image.version="$version" --annotation org.opencontainers.image.revision="$commit" \
  "$container"
buildah commit --quiet --rm "$container" "$KILN_IMAGE" >/dev/null
trap - EXIT
# The image this one replaced, untagged now (vfs stores every layer whole).
podman image prune --force >/dev/null
size=$(podman image inspect --format '{{.Size}}' "$KILN_IMAGE")
echo "Built $KILN_IMAGE, Kiln $version (commit $commit): $((size / 1000000)) MB ($base_tag base + kiln $(($(stat -c %s "$KILN_IMAGE_SCRATCH/kiln") / 1000000)) MB)"
