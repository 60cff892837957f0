/**
 * The seed's interface as its text says it (../shared/seed, whitespace collapsed, read as Python): its argparse
 * flags with their defaults, and the fields its results lines carry. SEED_INTERFACE is the table extracted from it
 * and checked in, so that CI without ../shared still compares the suite against it; extractSeedInterface() reads
 * the seed's text, and tests/seed_differences_test.ts checks the two agree when the seed is there.
 */

/** One argparse flag of the seed: its name without dashes and its default (required: `"required"`). */
export interface SeedFlag {
  flag: string;
  default: unknown;
  choices?: string[];
}

/** What the seed's interface is. */
export interface SeedInterface {
  flags: SeedFlag[];
  /** The fields a results line (or its regraded line) may carry, in the order the seed's code sets them. */
  resultFields: string[];
}

/** Extracted from ../shared/seed/000_17d10741b86cb323.txt (extractSeedInterface). */
export const SEED_INTERFACE: SeedInterface = {
  flags: [
    { flag: "help", default: false },
    { flag: "tasks", default: null },
    { flag: "human", default: false },
    { flag: "human-split", default: "test", choices: ["test", "train", "all"] },
    { flag: "human-macros", default: null },
    { flag: "record-rows", default: false },
    { flag: "record-family", default: null },
    { flag: "arm", default: "required", choices: ["base", "pooled", "oracle", "agent_planner"] },
    { flag: "planner-name", default: "qwen35-4b" },
    { flag: "sub-cap", default: 15 },
    { flag: "planner-turns", default: 12 },
    { flag: "agent-version", default: "v1" },
    { flag: "reasoning-to-fallback", default: false },
    { flag: "gate-note", default: false },
    { flag: "gate-done", default: false },
    { flag: "fallback", default: null },
    { flag: "adapters", default: [] },
    { flag: "base-name", default: "qwen35-4b" },
    { flag: "vllm", default: "http://127.0.0.1:8400/v1" },
    { flag: "temperature", default: 0 },
    { flag: "max-tokens", default: 1024 },
    { flag: "repeats", default: 1 },
    { flag: "workers", default: 8 },
    { flag: "timeout", default: 600 },
    { flag: "max-steps", default: 0 },
    { flag: "ports", default: [8318, 8319] },
    { flag: "limit", default: 0 },
    { flag: "task-ids", default: null },
    { flag: "out", default: "required" },
    { flag: "pooled-name", default: "pooled" },
    { flag: "regrade", default: null },
    { flag: "resume", default: false },
    { flag: "verifier-only", default: false },
  ],
  resultFields: [
    "task_id",
    "episode",
    "macro",
    "site",
    "arm",
    "ok",
    "detail",
    "steps",
    "answer",
    "done",
    "models",
    "errors",
    "grade_error",
    "rows",
    "subtasks",
    "error",
    "duration_s",
    "repeat",
    "regraded",
  ],
};

/** The text of each top-level call `name(...)` in `text`, its parentheses' content. */
function calls(text: string, name: string): string[] {
  const out: string[] = [];
  for (let at = text.indexOf(name + "("); at >= 0; at = text.indexOf(name + "(", at + 1)) {
    const start = at + name.length + 1;
    const end = closing(text, start);
    out.push(text.slice(start, end));
  }
  return out;
}

/** The index of the bracket closing the one opened just before `start` (strings skipped). */
function closing(text: string, start: number): number {
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i = text.indexOf(c, i + 1);
      while (text[i - 1] === "\\") i = text.indexOf(c, i + 1);
    } else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c) && --depth === 0) return i;
  }
  throw new Error(`unbalanced brackets after offset ${start}`);
}

/** The top-level comma-separated parts of an argument list. */
function splitArgs(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if (c === '"' || c === "'") {
      i = args.indexOf(c, i + 1);
      while (args[i - 1] === "\\") i = args.indexOf(c, i + 1);
    } else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === "," && depth === 0) {
      parts.push(args.slice(from, i).trim());
      from = i + 1;
    }
  }
  parts.push(args.slice(from).trim());
  return parts.filter(Boolean);
}

/** A Python literal's value: None, True, False, numbers, strings, set(), lists of those. */
function pyValue(text: string): unknown {
  const t = text.trim();
  if (t === "None") return null;
  if (t === "True" || t === "False") return t === "True";
  if (t === "set()") return [];
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (/^".*"$/.test(t)) return JSON.parse(t);
  if (t.startsWith("[")) return splitArgs(t.slice(1, -1)).map(pyValue);
  throw new Error(`not a literal the seed's defaults use: ${t}`);
}

/** The seed's flags and results fields, read from its text. */
export function extractSeedInterface(seed: string): SeedInterface {
  const flags: SeedFlag[] = [{ flag: "help", default: false }];
  for (const call of calls(seed, "ap.add_argument")) {
    const [name, ...rest] = splitArgs(call);
    const kw = Object.fromEntries(rest.map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]));
    const flag: SeedFlag = {
      flag: (pyValue(name) as string).replace(/^--/, ""),
      default: kw.required === "True"
        ? "required"
        : kw.action === '"store_true"'
        ? false
        : pyValue(kw.default ?? "None"),
    };
    if (kw.choices) flag.choices = pyValue(kw.choices) as string[];
    flags.push(flag);
  }
  const fields: string[] = [];
  const add = (f: string) => fields.includes(f) || fields.push(f);
  // run_episode's res = {...}, its res["x"] = and res.update(x=...), _run's res["repeat"], regrade's {**r, ...}.
  const literal = /res = \{([^}]*)\}/.exec(seed)![1];
  for (const m of literal.matchAll(/"([a-z_]+)":/g)) add(m[1]);
  for (const call of calls(seed, "res.update")) for (const a of splitArgs(call)) add(a.slice(0, a.indexOf("=")));
  for (const m of seed.matchAll(/res\["([a-z_]+)"\] =|\{\*\*r, ([^}]*)\}/g)) {
    if (m[1]) add(m[1]);
    for (const k of (m[2] ?? "").matchAll(/"([a-z_]+)":/g)) add(k[1]);
  }
  return { flags, resultFields: fields };
}
