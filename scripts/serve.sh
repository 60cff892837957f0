#!/usr/bin/env bash
# Serve the base model and the family adapters with vLLM, under the names the suite requests (docs/serving.md).
#
#   bash scripts/serve.sh                 # base + the six adapters from $ADAPTER_DIR, on 127.0.0.1:8400
#   ADAPTERS="drag rest" bash scripts/serve.sh
#   DRY_RUN=1 bash scripts/serve.sh       # print the vllm command and exit
#   bash scripts/serve.sh --enforce-eager # extra arguments go to vllm serve as they are
#
# Environment (defaults in brackets):
#   BASE_MODEL    the base checkpoint, a hub id or a local path                [Qwen/Qwen3.5-4B]
#   SERVED_NAME   the base model's served name, the suite's --base-name         [qwen35-4b]
#   ADAPTER_DIR   folder with one LoRA adapter folder per name                  [adapters]
#   ADAPTERS      adapter names to load, each $ADAPTER_DIR/<name>; "" for none [drag io select rest reasoning pooled]
#   HOST, PORT    where the OpenAI API listens                                  [127.0.0.1, 8400]
#   MAX_LORA_RANK the largest adapter rank                                      [64]
#   MAX_MODEL_LEN context length (screenshot + element list + history)          [32768]
#   GPU_MEM       --gpu-memory-utilization                                      [0.90]
# Exit codes: 0 (dry run printed, or vllm ended cleanly), 2 (an adapter folder is missing, or vllm is not installed),
# otherwise vllm's own.
set -euo pipefail

BASE_MODEL="${BASE_MODEL:-Qwen/Qwen3.5-4B}"
SERVED_NAME="${SERVED_NAME:-qwen35-4b}"
ADAPTER_DIR="${ADAPTER_DIR:-adapters}"
ADAPTERS="${ADAPTERS-drag io select rest reasoning pooled}"
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8400}"
MAX_LORA_RANK="${MAX_LORA_RANK:-64}"
MAX_MODEL_LEN="${MAX_MODEL_LEN:-32768}"
GPU_MEM="${GPU_MEM:-0.90}"

lora_modules=()
missing=()
for name in $ADAPTERS; do
  if [ -f "$ADAPTER_DIR/$name/adapter_config.json" ]; then
    lora_modules+=("$name=$ADAPTER_DIR/$name")
  else
    missing+=("$ADAPTER_DIR/$name")
  fi
done
if [ "${#missing[@]}" -gt 0 ] && [ -z "${DRY_RUN:-}" ]; then
  echo "serve.sh: no LoRA adapter (adapter_config.json) in: ${missing[*]}; set ADAPTERS to the ones you have" >&2
  exit 2
fi
[ "${#missing[@]}" -gt 0 ] && echo "serve.sh: dry run: adapters not found: ${missing[*]}" >&2
# the dry run shows every requested adapter, found or not
[ -n "${DRY_RUN:-}" ] && lora_modules=() && for name in $ADAPTERS; do lora_modules+=("$name=$ADAPTER_DIR/$name"); done

cmd=(vllm serve "$BASE_MODEL"
  --served-model-name "$SERVED_NAME"
  --host "$HOST" --port "$PORT"
  --max-model-len "$MAX_MODEL_LEN"
  --gpu-memory-utilization "$GPU_MEM"
  --limit-mm-per-prompt '{"image": 1}'
  --structured-outputs-config.backend xgrammar)
if [ "${#lora_modules[@]}" -gt 0 ]; then
  cmd+=(--enable-lora --max-lora-rank "$MAX_LORA_RANK" --max-loras "${#lora_modules[@]}"
    --lora-modules "${lora_modules[@]}")
fi
cmd+=("$@")

if [ -n "${DRY_RUN:-}" ]; then
  printf '%q ' "${cmd[@]}"
  echo
  exit 0
fi
if ! command -v vllm >/dev/null 2>&1; then
  echo "serve.sh: vllm is not installed here (pip install vllm, on a machine with a GPU)" >&2
  exit 2
fi
exec "${cmd[@]}"
