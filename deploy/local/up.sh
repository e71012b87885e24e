#!/usr/bin/env bash
# Brings the whole local stack up: deps, Redis, PostgreSQL, release build, migrations, a demo tenant and key, the
# worldarchitect tenant with a development key set for its MCP endpoint, the provider simulator (`kiln-dev simulator`),
# the API, the worker and the operators' console in the background; then runs the demo jobs end to end: an echo, a text
# generation streamed from the simulator, a chat video, a campaign PDF, a published story page, and an MCP tool call
# that opens a WorldArchitect campaign. Safe to re-run (the services are restarted on the new build).
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=env.sh source-path=SCRIPTDIR
source "$here/env.sh"

bash "$here/install-deps.sh"
bash "$here/start-redis.sh"
bash "$here/start-postgres.sh"

cd "$KILN_ROOT"
echo "Building kiln and kiln-dev (release). The first build fetches and compiles dependencies: expect several minutes."
swift build -c release --product kiln
swift build -c release --product kiln-dev
bin="$(swift build -c release --show-bin-path)"
kiln="$bin/kiln"
kiln_dev="$bin/kiln-dev"

mkdir -p "$KILN_STATE_DIR/logs" "$KILN_STATE_DIR/run" "$KILN_OBJECT_ROOT"
"$kiln" migrate

key_file="$KILN_STATE_DIR/demo-api-key"
if [[ ! -s $key_file ]]; then
  rc=0
  "$kiln" tenant create demo --name "Demo app" --diagnostics || rc=$?
  ((rc == 0 || rc == 3)) || kiln_die "kiln tenant create failed (exit $rc)"  # 3 = already exists
  # Write via a temp file so a failed command never leaves an empty key file that would skip this next time.
  (umask 077 && "$kiln" key create demo --raw >"$key_file.tmp")
  [[ -s $key_file.tmp ]] || kiln_die "kiln key create printed no key"
  mv "$key_file.tmp" "$key_file"
fi
key=$(<"$key_file")

# WorldArchitect's MCP endpoint, reachable out of the box: its tenant, and a development key set for its sign-in
# (.kiln/mcp/worldarchitect.pem, made once and never committed), which the local stack's policies give it in place of
# the production key set (deploy/jwks/worldarchitect.json). The services below read those policies (dev-policies.py).
rc=0
"$kiln" tenant create worldarchitect --name "WorldArchitect" >/dev/null || rc=$?
((rc == 0 || rc == 3)) || kiln_die "kiln tenant create worldarchitect failed (exit $rc)"
mcp_dir="$KILN_STATE_DIR/mcp"
mcp_key_set=$("$kiln_dev" mcp keys --tenant worldarchitect --keys "$mcp_dir")
python3 "$here/dev-policies.py" "$KILN_POLICIES" "$mcp_dir/policies.json" worldarchitect "$mcp_key_set"
export KILN_POLICIES="$mcp_dir/policies.json"

# (Re)start the services. setsid + nohup detach them from this script's session and terminal, so a
# Ctrl-C here or closing the terminal does not take them down.
# The worker serves its own metrics on 127.0.0.1:$KILN_WORKER_METRICS_PORT (the API's are on /metrics).
# The simulator is a development tool: it comes from kiln-dev, the API and the worker from kiln.
for svc in simulator api worker console; do
  kiln_stop_pidfile "$KILN_STATE_DIR/run/$svc.pid"
  log="$KILN_STATE_DIR/logs/$svc.log"
  if [[ -f $log ]]; then mv "$log" "$log.1"; fi  # keep the previous run's log for post-mortems
  program=$kiln
  args=()
  [[ $svc == worker ]] && args=(--metrics-port "$KILN_WORKER_METRICS_PORT")
  [[ $svc == simulator ]] && program=$kiln_dev && args=(--port 8790)
  setsid nohup "$program" "$svc" "${args[@]}" >"$log" 2>&1 </dev/null &
  echo $! >"$KILN_STATE_DIR/run/$svc.pid"
done

api_pid=$(<"$KILN_STATE_DIR/run/api.pid")
for i in $(seq 30); do
  curl -fsS "$KILN_API_URL/readyz" >/dev/null 2>&1 && break
  if ! kill -0 "$api_pid" 2>/dev/null || ((i == 30)); then
    echo "API not ready at $KILN_API_URL/readyz; log tail:" >&2
    tail -n 30 "$KILN_STATE_DIR/logs/api.log" >&2 || true
    exit 1
  fi
  sleep 1
done
echo "API ready at $KILN_API_URL"
for _ in $(seq 30); do
  curl -fsS http://127.0.0.1:8790/healthz >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS http://127.0.0.1:8790/healthz >/dev/null 2>&1 || kiln_die "the provider simulator is not answering on 127.0.0.1:8790; see $KILN_STATE_DIR/logs/simulator.log"

# The demo jobs: API -> Redis queue -> worker -> PostgreSQL end to end, then the same with a provider call
# (the worker asks the simulator through libcurl and streams the text to the job's events), then a ChatTale chat
# video (rendered with Cairo and Pango, encoded by ffmpeg, stored as the job's artifact).
hdrs=(-H "Authorization: Bearer $key" -H "Kiln-Identity: demo-user")
json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$1"; }
# Leaves the job's id in `id`.
run_demo_job() {
  local job status=""
  job=$(curl -sS --fail-with-body "${hdrs[@]}" -H "Content-Type: application/json" -d "$1" "$KILN_API_URL/v1/jobs")
  id=$(json_field id <<<"$job")
  [[ -n $id ]] || kiln_die "no job id in response: $job"
  echo "Submitted demo job $id: $1"
  for _ in $(seq 60); do  # 30 s
    job=$(curl -sS --fail-with-body "${hdrs[@]}" "$KILN_API_URL/v1/jobs/$id")
    status=$(json_field status <<<"$job")
    case $status in succeeded | failed | dead | cancelled) break ;; esac
    sleep 0.5
  done
  python3 -m json.tool <<<"$job"
  [[ $status == succeeded ]] || kiln_die "demo job $id ended as '${status:-still pending after 30 s}'; see the logs under $KILN_STATE_DIR/logs"
}
run_demo_job '{"kind":"diag.echo","input":{"message":"hello from kiln"}}'
run_demo_job '{"kind":"diag.generate","input":{"prompt":"Tell a short story about a lighthouse keeper."}}'
run_demo_job '{"kind":"video.chat_export","input":{"conversation":{
  "characters":[{"id":"me","name":"Me","color":"#0A84FF","avatar":"😎"},{"id":"sam","name":"Sam","color":"#34C759","avatar":"🦊"}],
  "messages":[{"character":"sam","text":"Are you coming tonight?"},{"character":"me","text":"Yes! Leaving now 🏃"}]},
  "settings":{"format":"1:1","fps":30,"typing_speed":"fast"}}}'
curl -sS --fail-with-body "${hdrs[@]}" -o "$KILN_STATE_DIR/demo-chat.mp4" "$KILN_API_URL/v1/jobs/$id/artifacts/chat.mp4"
echo "The demo chat video: $KILN_STATE_DIR/demo-chat.mp4"
run_demo_job '{"kind":"document.export","input":{"format":"pdf","campaign":{"title":"The Drowned Chapel","player":"Kael",
  "scenes":[{"text":"The chapel doors groan open. Water laps at the pews."},{"title":"The altar","text":"Kael searches the altar — and finds a key."}],
  "state":{"character":{"name":"Kael","class":"rogue","level":3,"hp":18,"max_hp":24,"inventory":["dagger","key"]},
           "npcs":[],"location":"The Drowned Chapel","locations":["The Drowned Chapel"],"combat":{"active":false,"combatants":[]}}}}}'
curl -sS --fail-with-body "${hdrs[@]}" -o "$KILN_STATE_DIR/demo-campaign.pdf" "$KILN_API_URL/v1/jobs/$id/artifacts/campaign.pdf"
echo "The demo campaign PDF: $KILN_STATE_DIR/demo-campaign.pdf"
run_demo_job '{"kind":"share.publish","input":{"story":{"title":"Gull Point","author":"Mira","nodes":[
  {"title":"The keeper","text":"Mira took the lighthouse job on a Tuesday."},{"text":"Something was breathing on the stairs."}]}}}'
echo "The demo story's web reader page (no credentials needed): $(curl -sS "${hdrs[@]}" "$KILN_API_URL/v1/jobs/$id" | python3 -c 'import json, sys; print(json.load(sys.stdin)["result"]["share_url"])')"

# An MCP tool call, as WorldArchitect's app makes it: the official Python client opens a campaign over the endpoint with a
# development token for one of its players.
mcp_endpoint="$KILN_API_URL/mcp/worldarchitect"
python3 "$here/mcp-demo.py" "$mcp_endpoint" "$("$kiln_dev" mcp token --identity demo-player --keys "$mcp_dir")" \
  || kiln_die "the MCP demo failed; see $KILN_STATE_DIR/logs/api.log"

# An operator for the console, created once; its token is shown only at creation, so it is kept here.
operator_file="$KILN_STATE_DIR/console-operator-token"
if [[ ! -s $operator_file ]]; then
  (umask 077 && "$kiln" operator create local-operator --role operator | tail -n 1 >"$operator_file.tmp")
  [[ -s $operator_file.tmp ]] || kiln_die "kiln operator create printed no token"
  mv "$operator_file.tmp" "$operator_file"
fi
echo "The operators' console: http://127.0.0.1:$KILN_CONSOLE_PORT/console (sign in with the token in $operator_file)"

cat <<MSG

Logs:    $KILN_STATE_DIR/logs/{api,worker,simulator,console}.log  (Redis: $KILN_STATE_DIR/redis.log, PostgreSQL: $KILN_STATE_DIR/postgres.log)
Stop:    deploy/local/stop.sh
Try:
  KEY=\$(cat $key_file)
  curl -sS -H "Authorization: Bearer \$KEY" -H "Kiln-Identity: demo-user" -H "Content-Type: application/json" \\
    -d '{"kind":"diag.echo","input":{"message":"hi"}}' $KILN_API_URL/v1/jobs
  curl -sS -H "Authorization: Bearer \$KEY" -H "Kiln-Identity: demo-user" $KILN_API_URL/v1/jobs/<id>
  curl -N -H "Authorization: Bearer \$KEY" -H "Kiln-Identity: demo-user" $KILN_API_URL/v1/jobs/<id>/events
MCP:     $mcp_endpoint  (WorldArchitect's campaigns; docs/mcp.md)
  TOKEN=\$($kiln_dev mcp token --identity player-1)     # a development token for the user player-1, valid 12 hours
  python3 deploy/local/mcp-demo.py $mcp_endpoint "\$TOKEN"
  npx @modelcontextprotocol/inspector   # Streamable HTTP, URL $mcp_endpoint, header Authorization: Bearer <TOKEN>
MSG
