/** Command-line parsing shared by the entry scripts: flags in --kebab-case, errors as UsageError (exit 2). */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors/mod.ts";

export type Flags = Record<string, string | boolean | undefined>;

/** Parses `argv` against `options`; an unknown flag or a missing value is a UsageError. */
export function parseFlags(argv: string[], options: ParseArgsConfig["options"]): Flags {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Flags;
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
}

/** A whole number flag within [min, max]; `fallback` (a number, or undefined for "the default") when absent. */
export function intFlag<F extends number | undefined>(
  flags: Flags,
  name: string,
  fallback: F,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number | F {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} "${raw}" is not a whole number from ${min} to ${max}`);
  }
  return n;
}

/** A comma-separated list flag (empty items dropped). */
export function listFlag(flags: Flags, name: string): string[] | undefined {
  const raw = flags[name];
  if (typeof raw !== "string") return undefined;
  return raw.split(",").map((s) => s.trim()).filter(Boolean);
}

/** Site bases from --bases URLs or --ports on 127.0.0.1, without trailing slashes. */
export function basesFlag(flags: Flags): string[] {
  const bases = listFlag(flags, "bases") ?? [];
  for (const port of listFlag(flags, "ports") ?? []) {
    if (!/^\d+$/.test(port)) throw new UsageError(`--ports "${port}" is not a port number`);
    bases.push(`http://127.0.0.1:${port}`);
  }
  return bases.map((b) => {
    try {
      const u = new URL(b);
      return `${u.origin}${u.pathname.replace(/\/+$/, "")}`;
    } catch {
      throw new UsageError(`--bases "${b}" is not a URL (e.g. http://127.0.0.1:8318)`);
    }
  });
}
