#!/usr/bin/env bash
# The image test: builds localhost/kiln:latest (build.sh), then runs Kiln from it as production would, against the
# local Redis and PostgreSQL (started here if needed): `kiln migrate`, `kiln tenant create` and `kiln key create` as
# one-shot containers, then an API container and a worker container, each non-root with a read-only root file system,
# the configuration mounted read-only at /etc/kiln and the objects on a volume, on the host's network. It submits an
# echo job and a chat video (Cairo, Pango, the fonts and ffmpeg, all from the image) through the API container and
# checks both succeed and the video decodes; that a tenant's daily quota refuses its second metered job; that the
# metrics the alerts, the dashboard and the KEDA triggers name are all exported by the two containers; and that the
# worker drains and exits 0 on `podman stop` (SIGTERM).
# Everything runs in its own Redis namespace and PostgreSQL schema; the containers are removed at the end.
# .ci/run runs it (deploy/local/test.sh); alone: `deploy/container/test.sh`.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../local/env.sh
source "$here/../local/env.sh"
# shellcheck source=podman-env.sh
source "$here/podman-env.sh"

started=$SECONDS
bash "$here/build.sh"
built=$SECONDS
bash "$here/../local/start-redis.sh" >/dev/null || kiln_die "Redis did not come up on 127.0.0.1:$KILN_REDIS_PORT"
bash "$here/../local/start-postgres.sh" >/dev/null || kiln_die "PostgreSQL did not come up on 127.0.0.1:$KILN_PG_PORT"

# This checkout's containers and state; the API on this checkout's port, the worker's metrics on the next one.
api="kiln-image-test-api-$KILN_API_PORT"
worker="kiln-image-test-worker-$KILN_API_PORT"
metrics_port=$((KILN_API_PORT + 1))
state="$KILN_STATE_DIR/image-test"
cleanup() { podman rm --force --ignore "$api" "$worker" >/dev/null 2>&1 || true; }
trap cleanup EXIT
cleanup
rm -rf "$state" && mkdir -p "$state/kiln" && chown 10001:10001 "$state/kiln"

run_args=(--network host --read-only
  --volume "$KILN_ROOT/deploy:/etc/kiln:ro" --volume "$state/kiln:/var/lib/kiln"
  --env KILN_REDIS_URL --env KILN_DATABASE_URL --env KILN_JOANIE_JWT_SECRET --env KILN_VERAMO_JWT_SECRET
  --env KILN_NAMESPACE=kiln-image-test --env KILN_DATABASE_SCHEMA=image_test
  --env KILN_PROVIDERS=/etc/kiln/providers.json --env KILN_PUBLIC_URL="$KILN_API_URL")
kiln_once() { podman run --rm "${run_args[@]}" "$KILN_IMAGE" "$@"; }

[[ $(podman image inspect --format '{{.Config.User}}' "$KILN_IMAGE") == 10001:10001 ]] || kiln_die "the image does not run as 10001"
# The image is labelled with the release its kiln says it is.
read -r version _ < <(kiln_once --version)
label=$(podman image inspect --format '{{index .Labels "org.opencontainers.image.version"}}' "$KILN_IMAGE")
[[ -n $version && $label == "$version" ]] || kiln_die "the image's version label ($label) is not kiln's release ($version)"
kiln_once migrate
# demo has no policy, so nothing it submits is metered; loadtest's policy meters diag.echo (deploy/policies.json).
declare -A keys
for tenant in demo loadtest; do
  rc=0
  kiln_once tenant create "$tenant" --name "Image test" --diagnostics >/dev/null || rc=$?
  ((rc == 0 || rc == 3)) || kiln_die "kiln tenant create failed in the container (exit $rc)"  # 3 = already exists
  keys[$tenant]=$(kiln_once key create "$tenant" --raw)
  [[ -n ${keys[$tenant]} ]] || kiln_die "kiln key create printed no key"
done

podman run --detach --name "$api" "${run_args[@]}" "$KILN_IMAGE" api --port "$KILN_API_PORT" >/dev/null
podman run --detach --name "$worker" "${run_args[@]}" "$KILN_IMAGE" worker --io 4 --cpu 1 --metrics-port "$metrics_port" >/dev/null
for i in $(seq 60); do
  curl -fsS "$KILN_API_URL/readyz" >/dev/null 2>&1 && break
  [[ $(podman inspect --format '{{.State.Running}}' "$api") == true ]] && ((i < 60)) ||
    { podman logs --tail 30 "$api" >&2; kiln_die "the API container is not ready at $KILN_API_URL/readyz"; }
  sleep 1
done

headers=(-H "Authorization: Bearer ${keys[demo]}" -H "Kiln-Identity: image-test" -H "Content-Type: application/json")
json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$1"; }
# Submits a job through the API container and waits for it to end; leaves its id in `id`.
run_job() {
  local job status=""
  job=$(curl -sS --fail-with-body "${headers[@]}" -d "$1" "$KILN_API_URL/v1/jobs")
  id=$(json_field id <<<"$job")
  [[ -n $id ]] || kiln_die "no job id in the answer: $job"
  for _ in $(seq 300); do  # 150 s: a video render on a loaded machine
    job=$(curl -sS --fail-with-body "${headers[@]}" "$KILN_API_URL/v1/jobs/$id")
    status=$(json_field status <<<"$job")
    case $status in succeeded | failed | dead | cancelled) break ;; esac
    sleep 0.5
  done
  if [[ $status != succeeded ]]; then
    podman logs --tail 30 "$worker" >&2
    kiln_die "job $id ended '${status:-still running after 150 s}': $job"
  fi
  echo "image test: job $id ($(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["kind"])' "$1")) succeeded"
}
run_job '{"kind":"diag.echo","input":{"message":"hello from the image"}}'
run_job '{"kind":"video.chat_export","input":{"conversation":{
  "characters":[{"id":"me","name":"Me","color":"#0A84FF","avatar":"😎"},{"id":"sam","name":"Sam","color":"#34C759","avatar":"🦊"}],
  "messages":[{"character":"sam","text":"Built from debootstrap?"},{"character":"me","text":"And running read-only 🎬"}]},
  "settings":{"format":"1:1","fps":30,"typing_speed":"fast"}}}'
curl -sS --fail-with-body "${headers[@]}" -o "$state/chat.mp4" "$KILN_API_URL/v1/jobs/$id/artifacts/chat.mp4"
streams=$(ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "$state/chat.mp4" | sort | tr '\n' ' ')
[[ $streams == "aac h264 " ]] || kiln_die "the chat video from the image holds '$streams', not H.264 and AAC"

# Admission through the API container: loadtest's lowest tier allows one echo a day, so a second is refused.
metered=(-H "Authorization: Bearer ${keys[loadtest]}" -H "Kiln-Identity: image-test-$RANDOM$RANDOM" -H "Kiln-Tier: limit-1"
  -H "Content-Type: application/json" -d '{"kind":"diag.echo","input":{"message":"metered"}}')
answers=$(for _ in 1 2; do curl -sS -o /dev/null -w '%{http_code} ' "${metered[@]}" "$KILN_API_URL/v1/jobs"; done)
[[ $answers == "202 429 " ]] || kiln_die "two metered echo jobs in one day were answered $answers, not 202 then 429"

curl -fsS "$KILN_API_URL/metrics" >"$state/api-metrics.txt"
curl -fsS "http://127.0.0.1:$metrics_port/metrics" >"$state/worker-metrics.txt"
python3 "$KILN_ROOT/deploy/monitoring/check.py" --exported "$state/api-metrics.txt" "$state/worker-metrics.txt"

podman stop --time 40 "$worker" >/dev/null
code=$(podman inspect --format '{{.State.ExitCode}}' "$worker")
((code == 0)) || { podman logs --tail 30 "$worker" >&2; kiln_die "the worker exited $code on SIGTERM, not 0"; }
size=$(podman image inspect --format '{{.Size}}' "$KILN_IMAGE")
echo "image test: passed; $KILN_IMAGE is $((size / 1000000)) MB; built in $((built - started)) s, tested in $((SECONDS - built)) s"
