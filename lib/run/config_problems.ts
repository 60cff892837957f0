/**
 * What is wrong with a run configuration, as data that each front end words with its own names: the library by
 * setting path and value (`run configuration: workers 0 is not a whole number from 1 to 256`), eval.ts by flag and
 * the text given (`--workers "0" is not a whole number from 1 to 256`). What is wrong is the schema's wording.
 */
import type { z } from "zod";
import { UsageError } from "../errors/mod.ts";
import { formatPath, issueParts } from "../protocol/mod.ts";

/** Where in a configuration: `["model", "adapters", 1]` is the second item of model.adapters. */
export type SettingPath = readonly (string | number)[];

/** One problem of a run configuration. */
export interface ConfigProblem {
  /** The setting. */
  path: SettingPath;
  /** The value given there (undefined: none). */
  input: unknown;
  /**
   * `value`: the message follows the setting and its value (`is not one of: v1, v2`); `missing`: a required
   * setting is not given; `rule`: a rule between settings, whose message names them as {0}, {1}, … (`settings`);
   * `shape`: a value of the wrong type or an unknown field, in zod's words.
   */
  kind: "value" | "missing" | "rule" | "shape";
  /** What is wrong, in the schema's words. */
  message: string;
  /** A rule's settings, by dotted path (`planner.subCap`). */
  settings?: readonly string[];
}

/** How a message names settings. */
export interface SettingNames {
  /** A setting by its dotted path: `workers` (library), `--workers` (eval.ts). */
  name(path: string): string;
  /** A setting and the value it was given: `workers 0`, `--workers "1.5"`, `--adapters "drag,magic": "magic"`. */
  given(path: SettingPath, input: unknown): string;
}

/** A value as a message quotes it. */
function shownValue(value: unknown): string {
  const s = typeof value === "number" ? String(value) : JSON.stringify(value) ?? String(value);
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
}

/** The library's names: setting paths, values as JSON. */
export const SETTING_PATHS: SettingNames = {
  name: (path) => path,
  given: (path, input) => `${formatPath(path)} ${shownValue(input)}`,
};

/** A problem in `names`' words. */
export function describeProblem(p: ConfigProblem, names: SettingNames): string {
  switch (p.kind) {
    case "rule":
      return p.message.replace(/\{(\d+)\}/g, (_, i) => names.name(p.settings?.[Number(i)] ?? "?"));
    case "missing":
      return `${names.name(formatPath(p.path))} is required`;
    case "value":
      return `${names.given(p.path, p.input)}${p.message.startsWith(":") ? "" : " "}${p.message}`;
    default:
      return `${names.name(formatPath(p.path))}: ${p.message}`;
  }
}

/** A configuration refused: every problem, the first in the library's words. eval.ts words it with flag names. */
export class ConfigError extends UsageError {
  /** Every problem of the configuration; the message words the first. */
  readonly problems: readonly ConfigProblem[];

  /** A refusal of `problems` (at least one). */
  constructor(problems: readonly ConfigProblem[], options?: ErrorOptions) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : "";
    super(`run configuration: ${describeProblem(problems[0], SETTING_PATHS)}${more}`, options);
    this.problems = problems;
  }
}

/** The value at `path` in `value`, or undefined. */
export function valueAt(value: unknown, path: SettingPath): unknown {
  let v = value;
  for (const key of path) v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

/** The problems of a zod error over `input`. */
export function problemsOf(error: z.ZodError, input: unknown): ConfigProblem[] {
  return error.issues.map((issue) => {
    const { path, message } = issueParts(issue);
    const at = path as SettingPath;
    const given = valueAt(input, at);
    const params = issue.code === "custom" ? (issue as { params?: { value?: boolean } }).params : undefined;
    if (given === undefined && (params?.value || issue.code === "invalid_type")) {
      return { path: at, input: given, kind: "missing", message };
    }
    if (params?.value) return { path: at, input: given, kind: "value", message };
    return { path: at, input: given, kind: "shape", message };
  });
}
