# shellcheck shell=bash
# Sourced by build.sh and test.sh after deploy/local/env.sh: podman and buildah with containers.conf beside this file
# and a container store of the checkout's own under .build-image/ (vfs, which works inside any sandbox), so nothing is
# shared with other checkouts or the machine's default store.
KILN_IMAGE_SCRATCH="$KILN_ROOT/.build-image"
KILN_IMAGE="localhost/kiln:latest"
mkdir -p "$KILN_IMAGE_SCRATCH/containers"
export CONTAINERS_CONF="$KILN_ROOT/deploy/container/containers.conf"
export CONTAINERS_STORAGE_CONF="$KILN_IMAGE_SCRATCH/containers/storage.conf"
cat >"$CONTAINERS_STORAGE_CONF" <<CONF
[storage]
driver = "vfs"
graphroot = "$KILN_IMAGE_SCRATCH/containers/storage"
runroot = "$KILN_IMAGE_SCRATCH/containers/run"
CONF
