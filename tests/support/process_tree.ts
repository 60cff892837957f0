/**
 * The process tree of a spawned entry script, for the fault and orphan tests: which Chromium processes it started,
 * their process group and profile folder, killing them, and whether they are gone. It asks `ps` (procps, which the
 * suite already uses for pkill): Deno lets a script read /proc/<pid>/ only with --allow-all, which the test task does
 * not grant.
 */

/** One process as `ps` lists it. */
interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  /** ps's STAT: a leading Z is a zombie (exited, not yet reaped by its parent). */
  stat: string;
  args: string;
}

/** Every process of the machine, now. */
function snapshotSync(): Proc[] {
  const out = new Deno.Command("ps", {
    args: ["-e", "-ww", "-o", "pid=,ppid=,pgid=,stat=,args="],
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) throw new Error(`ps failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).split("\n").flatMap((line) => {
    const m = line.match(/^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/);
    return m ? [{ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), stat: m[4], args: m[5] }] : [];
  });
}

// ps takes a few milliseconds: the callers poll it, so a synchronous call is simplest.
const snapshot = (): Promise<Proc[]> => Promise.resolve(snapshotSync());

const running = (p: Proc) => !p.stat.startsWith("Z");
const isChromium = (p: Proc) => /chrom/i.test(p.args.split(" ")[0]);

/**
 * The Chromium processes under `pid`: the browsers it launched (`roots`: Chromium processes whose parent is not one,
 * whether eval.ts started them itself or through a wrapper) and all of theirs (`all`).
 */
export async function chromiumUnder(pid: number): Promise<{ roots: number[]; all: number[] }> {
  const procs = (await snapshot()).filter(running);
  const children = (parent: number) => procs.filter((p) => p.ppid === parent);
  const roots: number[] = [];
  const all: number[] = [];
  const visit = (parent: number, underChromium: boolean) => {
    for (const child of children(parent)) {
      const chromium = isChromium(child);
      if (chromium && !underChromium) roots.push(child.pid);
      if (chromium || underChromium) all.push(child.pid);
      visit(child.pid, underChromium || chromium);
    }
  };
  visit(pid, false);
  return { roots, all };
}

/** Kills (SIGKILL) the browser processes `pid` launched, not their children; returns their pids. */
export async function killBrowsersUnder(pid: number): Promise<number[]> {
  const { roots } = await chromiumUnder(pid);
  for (const r of roots) {
    try {
      Deno.kill(r, "SIGKILL");
    } catch { /* it ended on its own */ }
  }
  return roots;
}

/** Those of `pids` that still run (zombies do not). */
export async function stillRunning(pids: number[]): Promise<number[]> {
  const live = new Set((await snapshot()).filter(running).map((p) => p.pid));
  return pids.filter((p) => live.has(p));
}

/** Polls until every pid has stopped running or `ms` passed; returns those still running. */
export async function waitGone(pids: number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = await stillRunning(pids);
    if (left.length === 0 || Date.now() >= until) return left;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Each pid with its command line, for an assertion message. */
export async function describePids(pids: number[]): Promise<string> {
  const procs = await snapshot();
  return pids.map((pid) => `${pid}: ${procs.find((p) => p.pid === pid)?.args.slice(0, 100) ?? "(gone)"}`).join("\n");
}

/** Processes still running (zombies do not) in process group `pgid`, its leader included. */
export function liveInGroup(pgid: number): number[] {
  return snapshotSync().filter((p) => running(p) && (p.pgid === pgid || p.pid === pgid)).map((p) => p.pid);
}

/** The --user-data-dir a running Chromium was started with, or null. */
export function profileDirOf(pid: number): string | null {
  const args = snapshotSync().find((p) => p.pid === pid)?.args ?? "";
  return /--user-data-dir=(\S+)/.exec(args)?.[1] ?? null;
}

/** SIGKILLs Chromium's process group and removes its profile folder (for a harness killed before it closed it). */
export function killChromium(pid: number): void {
  const profile = profileDirOf(pid);
  try {
    Deno.kill(-pid, "SIGKILL"); // Chromium leads its process group
  } catch { /* gone */ }
  if (profile) {
    try {
      Deno.removeSync(profile, { recursive: true });
    } catch { /* removed already */ }
  }
}
