/** Spawning the entry scripts as a user would, with the permissions of the deno.json tasks. */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const PERMS = [
  "--allow-net=127.0.0.1,localhost",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
];

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a spawned entry script runs with besides its flags. */
export interface CliOptions {
  /** The working folder (default: the repository root). */
  cwd?: string;
  /** Variables added to the environment. */
  env?: Record<string, string>;
  /** The permissions (default PERMS, eval's). */
  perms?: readonly string[];
}

/** Runs `deno run PERMS <ROOT>/script args` and waits for it. */
export function runCli(script: string, args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runDeno(["run", ...(options.perms ?? PERMS), join(ROOT, script), ...args], options);
}

/**
 * Runs deno.json's `task` with args from `options.cwd` (default: the repository root), as a user would from a shell:
 * without the INIT_CWD that a `deno task test` around the tests set (a task keeps an INIT_CWD it inherits, and the
 * suite's tasks cd to it).
 */
export function runTask(task: string, args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runDeno(["task", "--config", join(ROOT, "deno.json"), task, ...args], options, ["INIT_CWD"]);
}

/** Runs `deno ARGS` and waits for it, without the environment variables `unset`. */
export async function runDeno(args: string[], options: CliOptions, unset: string[] = []): Promise<CliResult> {
  const { cwd, env } = options;
  const inherited = Object.entries(Deno.env.toObject()).filter(([k]) => !unset.includes(k));
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: cwd ?? ROOT,
    clearEnv: true,
    env: { ...Object.fromEntries(inherited), NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Starts `deno run PERMS script args` and hands back the process, reading its stderr line by line. */
export function spawnCli(script: string, args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...PERMS, script, ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const stderrDone = (async () => {
    let buf = "";
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        lines.push(line);
        for (const w of [...waiters]) {
          if (w.pattern.test(line)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve();
          }
        }
      }
    }
  })();
  const stdout = new Response(child.stdout).text();
  return {
    child,
    lines,
    /** Resolves when a stderr line matches (or one already did). */
    waitFor(pattern: RegExp): Promise<void> {
      if (lines.some((l) => pattern.test(l))) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
    async done(): Promise<CliResult> {
      const { code } = await child.status;
      await stderrDone;
      return { code, stdout: await stdout, stderr: lines.join("\n") };
    },
  };
}

/** eval.ts's arguments for running `arm` over a task file on an external site server, into `out`. */
export function evalArgs(arm: string, tasks: string, out: string, base: string, ...more: string[]): string[] {
  return ["--arm", arm, "--tasks", tasks, "--out", out, "--bases", base, ...more];
}

/** results.jsonl (or another results file) of a run folder as objects (none when it does not exist). */
export async function readResults(out: string, file = "results.jsonl"): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${out}/${file}`).catch(() => "");
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/** Task lines for the lab app (tests/support/lab.ts), with the fields every task needs. */
export function labTask(task_id: string, startUrl: string, solution: unknown[], check: unknown = { no_writes: true }) {
  return JSON.stringify({
    task_id,
    site: "lab",
    macro: "open_detail",
    instruction: `lab task ${task_id}`,
    start: { url: startUrl },
    check,
    solution,
  });
}

/** Writes task lines to `<new temporary folder>/tasks.jsonl`; `out` is a folder name inside it (not created). */
export async function taskFile(
  lines: string[],
  prefix = "webmix-run-",
): Promise<{ dir: string; tasks: string; out: string }> {
  const dir = await Deno.makeTempDir({ prefix });
  const tasks = join(dir, "tasks.jsonl");
  await Deno.writeTextFile(tasks, lines.join("\n") + "\n");
  return { dir, tasks, out: join(dir, "out") };
}
