/**
 * What the bench's own process tree costs, read from /proc (Linux): CPU time and memory of this Deno process and
 * of its descendants (the Chromiums it launched, their renderers, GPU and network processes).
 *
 * CPU is sampled: a process's CPU time is the last value seen before it exits, so a renderer that dies between two
 * samples loses at most one interval of its time (the parent's cutime does not help: Chromium's zygote does not
 * hand its renderers' time up the chain). Memory is PSS (smaps_rollup): shared pages split between the processes
 * that map them, so that the sum over Chromium's processes is not inflated by the libraries they all map, as RSS is.
 */

/** CPU and memory of the bench process and of its descendants over a sampled interval. */
export interface TreeUsage {
  /** CPU time of this Deno process (every thread: the harness, the embedded sites, the fixture model server). */
  denoCpuMs: number;
  /** CPU time of the descendants (Chromium), summed over every process seen. */
  childCpuMs: number;
  /** Largest PSS of this Deno process seen, MB. */
  denoPssMb: number;
  /** Largest PSS sum of the descendants seen at one sample, MB. */
  childPssMb: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/**
 * Runs a shell line and returns its stdout. /proc is read through a child process: Deno asks --allow-all for any
 * read under /proc, and the bench runs with the suite's narrower permissions (--allow-run among them).
 */
async function shell(line: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("sh", { args: ["-c", line, "sh", ...args], stdout: "piped", stderr: "null" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

interface Proc {
  comm: string;
  ppid: number;
  cpuMs: number;
}

/** The sampler's own readers, which are children of this process too. */
const READERS = new Set(["sh", "cat", "grep"]);

/** Every process's parent and CPU time (utime + stime), from /proc/<pid>/stat. */
async function processTable(): Promise<Map<number, Proc>> {
  const table = new Map<number, Proc>();
  for (const line of (await shell("cat /proc/[0-9]*/stat 2>/dev/null")).split("\n")) {
    const close = line.lastIndexOf(")"); // the command name may hold spaces and parentheses
    if (close < 0) continue;
    const f = line.slice(close + 2).split(" ");
    table.set(Number(line.slice(0, line.indexOf(" "))), {
      comm: line.slice(line.indexOf("(") + 1, close),
      ppid: Number(f[1]),
      cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS,
    });
  }
  return table;
}

/** The descendants of `root` (not `root` itself, nor the sampler's readers) in a process table. */
function descendants(table: Map<number, Proc>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const p = queue.pop()!;
    if (!READERS.has(table.get(p)!.comm)) out.push(p);
    queue.push(...(children.get(p) ?? []));
  }
  return out;
}

/** The PSS of each of `pids` in MB (a process gone meanwhile is left out). */
async function pssMb(pids: number[]): Promise<Map<number, number>> {
  const text = await shell(
    'for p in "$@"; do echo "$p $(grep -m1 ^Pss: /proc/$p/smaps_rollup 2>/dev/null)"; done',
    ...pids.map(String),
  );
  const out = new Map<number, number>();
  for (const line of text.split("\n")) {
    const m = /^(\d+) Pss:\s+(\d+)/.exec(line);
    if (m) out.set(Number(m[1]), Number(m[2]) / 1024);
  }
  return out;
}

/**
 * Samples this process tree's CPU every `cpuEveryMs` and its memory every `memEveryMs` until stop(). Each sample
 * costs some CPU itself (a shell reading /proc; smaps_rollup walks page tables), hence the slow memory sampling.
 */
export class TreeSampler {
  /** CPU time last seen per descendant; the time of those alive at the start is subtracted (`#start`). */
  readonly #seen = new Map<number, number>();
  readonly #start = new Map<number, number>();
  #deno0 = 0;
  #denoPss = 0;
  #childPss = 0;
  #stopped = false;
  #loops: Promise<void>[] = [];

  private constructor() {}

  /** Starts sampling now. */
  static async start(cpuEveryMs = 500, memEveryMs = 2000): Promise<TreeSampler> {
    const s = new TreeSampler();
    const table = await processTable();
    s.#deno0 = table.get(Deno.pid)?.cpuMs ?? 0;
    for (const p of descendants(table, Deno.pid)) s.#start.set(p, table.get(p)!.cpuMs);
    s.#loops = [s.#loop(cpuEveryMs, () => s.#sampleCpu()), s.#loop(memEveryMs, () => s.#sampleMem())];
    return s;
  }

  async #loop(everyMs: number, sample: () => Promise<unknown>): Promise<void> {
    while (!this.#stopped) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (!this.#stopped) await sample();
    }
  }

  async #sampleCpu(): Promise<Map<number, Proc>> {
    const table = await processTable();
    for (const p of descendants(table, Deno.pid)) this.#seen.set(p, table.get(p)!.cpuMs);
    return table;
  }

  async #sampleMem(): Promise<void> {
    const table = await processTable();
    const pss = await pssMb([Deno.pid, ...descendants(table, Deno.pid)]);
    this.#denoPss = Math.max(this.#denoPss, pss.get(Deno.pid) ?? 0);
    let child = 0;
    for (const [pid, mb] of pss) if (pid !== Deno.pid) child += mb;
    this.#childPss = Math.max(this.#childPss, child);
  }

  /** Stops sampling (after a last sample) and returns the totals. */
  async stop(): Promise<TreeUsage> {
    const [table] = await Promise.all([this.#sampleCpu(), this.#sampleMem()]);
    this.#stopped = true;
    await Promise.all(this.#loops);
    let child = 0;
    for (const [p, ms] of this.#seen) child += ms - (this.#start.get(p) ?? 0);
    return {
      denoCpuMs: (table.get(Deno.pid)?.cpuMs ?? 0) - this.#deno0,
      childCpuMs: child,
      denoPssMb: this.#denoPss,
      childPssMb: this.#childPss,
    };
  }
}
