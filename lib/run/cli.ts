/**
 * eval.ts's command line: its --help text and the run configuration its flags say, both from the flag table
 * (eval_flags.ts). Reading a flag only converts syntax (a number's text, a list's commas, ports into site bases);
 * the configuration's schema checks every value once, and its problems are worded here with the flag and the text
 * given: `--workers "1.5" is not a whole number from 1 to 256`. Every default shown comes from the schema.
 */
import { relative } from "node:path";
import { UsageError } from "../errors/mod.ts";
import { type Flags, isHttpUrl, numberText, SUITE_ROOT } from "../io/mod.ts";
import { DEFAULT_JUDGE_MODEL } from "../llm/mod.ts";
import { ARMS } from "./arms.ts";
import { DEFAULT_VLLM, type RunConfig, runConfig, type RunConfigInput, settingDefault } from "./config.ts";
import { ConfigError, describeProblem, SETTING_PATHS, type SettingNames, type SettingPath } from "./config_problems.ts";
import { EVAL_FLAGS, FLAG_SECTIONS, type FlagSpec } from "./eval_flags.ts";

/** The help column, and the width help lines wrap at. */
const INDENT = 19;
const WIDTH = 112;

/** A setting's default as --help shows it: the suite's own files relative to the suite. */
function shownDefault(path: string): string {
  const value = settingDefault(path);
  return typeof value === "string" && value.startsWith(`${SUITE_ROOT}/`) ? relative(SUITE_ROOT, value) : String(value);
}

/** `  --workers N      help…`: the help from the help column, or from column 25 after a long flag, wrapped. */
function usageLine(f: FlagSpec): string {
  const head = `${f.short ? `-${f.short}, ` : ""}--${f.flag}${f.arg ? ` ${f.arg}` : ""}`;
  const help = f.help.replaceAll("{default}", () => shownDefault(f.path!));
  const lines = [`  ${head.padEnd(head.length < INDENT - 2 ? INDENT - 2 : Math.max(INDENT + 4, head.length + 3))}`];
  for (const word of help.split(" ")) {
    const last = lines[lines.length - 1];
    if (last.endsWith(" ")) lines[lines.length - 1] = last + word;
    else if (last.length + 1 + word.length > WIDTH) lines.push(" ".repeat(INDENT) + word);
    else lines[lines.length - 1] = `${last} ${word}`;
  }
  return lines.join("\n");
}

/** eval.ts --help: the arms from the registry, the flags from their table with the configuration's defaults. */
export function evalUsage(): string {
  const flagLines = FLAG_SECTIONS.map((s) => `${s.title}\n${s.flags.map(usageLine).join("\n")}`).join("\n\n");
  return `Usage: deno task eval --arm ARM --out DIR [options]

Runs ARM over the tasks and grades each episode on the site backend's evidence.

Arms:
${ARMS.map((a) => `  ${a.name.padEnd(INDENT - 2)}${a.help}`).join("\n")}

${flagLines}

The LLM tier of human verifiers' answer checks reads WEBMIX_JUDGE_BASE_URL, WEBMIX_JUDGE_API_KEY and
WEBMIX_JUDGE_MODEL (default ${DEFAULT_JUDGE_MODEL}); without them an answer that needs the LLM tier is graded
pending, and --regrade with them decides it. Example (a vLLM server serving the judge model):
  WEBMIX_JUDGE_BASE_URL=http://127.0.0.1:8400/v1 WEBMIX_JUDGE_MODEL=qwen35-4b deno task eval --human ...

deno task eval may reach 127.0.0.1 and localhost only: a --vllm, --bases or judge server on another host is
refused before the run (exit 2) with the command that allows it; deno task eval:remote may reach any host (the
agent's browser still reaches only the sites) (docs/cluster.md, "Permissions").

Paths: relative ones (--out, --tasks, ...) are relative to the current folder, under deno task too; the defaults
(fixtures/, prompts/) are the suite's own, wherever the command runs from.

Examples:
  deno task demo
  deno task eval --arm noop --out out/noop --workers 2
  deno task eval --arm replay --tasks my_tasks.jsonl --task-ids shop_cart_add,mail_send --out out/r1 --resume
  deno task eval --regrade out/r1
  deno task eval --arm replay --human --human-split all --out out/human
  deno task eval --arm replay --shard $SLURM_ARRAY_TASK_ID/3 --out out/r1/$SLURM_ARRAY_TASK_ID --resume
  deno task eval --arm oracle --adapters drag,io,select,rest --gate-done --vllm ${DEFAULT_VLLM} --out out/o1
`;
}

/** A list flag's items (blank ones dropped). @throws UsageError when the text names nothing. */
function listItems(f: FlagSpec, raw: string): string[] {
  const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${f.flag} "${raw}" names nothing: expected a comma-separated list`);
  return items;
}

/** A site base from a --bases item: an http(s) URL's origin and path without trailing slashes. */
function siteBase(item: string): string {
  if (!isHttpUrl(item)) return item; // the schema refuses it, quoting the item
  const u = new URL(item);
  return `${u.origin}${u.pathname.replace(/\/+$/, "")}`;
}

/** A flag's text as its setting's value: syntax only, the schema checks the value. */
function flagValue(f: FlagSpec, raw: string | boolean): unknown {
  const text = String(raw);
  switch (f.kind) {
    case "switch":
      return f.sets ?? true;
    case "whole":
    case "number":
      return numberText(text, f.kind === "whole");
    case "list":
      return listItems(f, text);
    case "bases":
      return listItems(f, text).map(siteBase);
    case "ports":
      return listItems(f, text).map((port) => {
        if (!/^\d+$/.test(port) || +port < 1 || +port > 65535) {
          throw new UsageError(`--${f.flag} "${port}" is not a port number (1 to 65535)`);
        }
        return Number(port);
      });
    default:
      return text;
  }
}

/** Sets `value` at a dotted path of `target`; a list adds to a list already there (--bases, then --ports). */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let at = target;
  for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
  const last = keys[keys.length - 1];
  at[last] = Array.isArray(at[last]) && Array.isArray(value) ? [...at[last] as unknown[], ...value] : value;
}

/** How eval.ts's messages name a setting: by the flag that gave it, with the text given. */
function flagNames(flags: Flags): SettingNames {
  const given = (f: FlagSpec) => flags[f.flag] !== undefined && flags[f.flag] !== false;
  const specOf = (path: string) =>
    EVAL_FLAGS.find((f) => f.path === path && given(f)) ?? EVAL_FLAGS.find((f) => f.path === path);
  return {
    name: (path) => specOf(path) ? `--${specOf(path)!.flag}` : path,
    given(path: SettingPath, input: unknown) {
      const keys = path.filter((k) => typeof k === "string").join(".");
      const spec = specOf(keys);
      if (!spec || !given(spec)) return SETTING_PATHS.given(path, input);
      const raw = String(flags[spec.flag]);
      const index = path.find((k) => typeof k === "number");
      if (index === undefined) return `--${spec.flag} "${raw}"`;
      const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
      const item = items[index] ?? String(input);
      return items.length > 1 ? `--${spec.flag} "${raw}": "${item}"` : `--${spec.flag} "${item}"`;
    },
  };
}

/**
 * The run configuration eval.ts's flags say, every value checked by the configuration's schema.
 * @param apiKey the model server's key ($WEBMIX_VLLM_API_KEY)
 * @throws UsageError naming the flag and quoting its text: `--timeout "1e9" is not a whole number from 1 to 86400`.
 */
export function configFromFlags(flags: Flags, apiKey?: string): RunConfig {
  const input: Record<string, unknown> = { model: { apiKey } };
  const setBy = new Map<string, FlagSpec>();
  for (const f of EVAL_FLAGS) {
    const raw = flags[f.flag];
    if (!f.path || raw === undefined || raw === false) continue;
    const value = flagValue(f, raw);
    const earlier = setBy.get(f.path);
    if (earlier?.conflict && earlier.sets !== f.sets) {
      throw new UsageError(`--${f.flag} and --${earlier.flag} exclude each other: ${f.conflict}`);
    }
    setBy.set(f.path, f);
    setPath(input, f.path, value);
  }
  try {
    return runConfig(input as unknown as RunConfigInput);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw new UsageError(describeProblem(err.problems[0], flagNames(flags)), { cause: err });
  }
}
