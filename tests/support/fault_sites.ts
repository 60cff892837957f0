/**
 * What the fault tests run episodes on: the bundled apps, the lab (tests/support/lab.ts) and `mark`, an app whose
 * pages tell the test when an episode reached them (`/mark/<name>`), so that a fault lands inside that episode;
 * task files of lab tasks; the count of a run's results.jsonl against the episodes it should hold; and running
 * independent cases at once, with no spawned process left behind by a failed one.
 */
import { Hono } from "hono";
import { html } from "hono/html";
import { APPS, type SandboxEnv, type SiteApp, type SitesServer, startSites } from "../../lib/sites/mod.ts";
import { renderPage } from "../../lib/sites/layout.ts";
import { labApp } from "./lab.ts";

/** A site server whose `/mark/<name>` pages report their visits. */
export interface FaultSites extends SitesServer {
  port: number;
  /** Resolves when `/mark/<name>` is (or was) requested (answered, for a page held `together`). */
  reached(name: string): Promise<void>;
  /** Holds `/mark/<name>?together=<group>` pages until `size` were requested (Marks.together). */
  together(group: string, size: number): void;
}

/** Which `/mark/<name>` pages were requested, shared by the servers of one test (a restarted one included). */
export class Marks {
  readonly seen = new Set<string>();
  #waiters: { name: string; resolve: () => void }[] = [];
  /** Each `together` group's size and the pages it holds until it is full (null once it was). */
  #groups = new Map<string, { size: number; held: (() => void)[] | null }>();

  /**
   * `/mark/<name>?together=<group>` pages are held until `size` of them were requested, then answered all at once
   * (and any later one at once): episodes that start on them start their waits together, however far apart their
   * browsers let them open the page.
   */
  together(group: string, size: number): void {
    this.#groups.set(group, { size, held: [] });
  }

  /**
   * Resolves once `group` is full (at once for a group never declared), or when `gone` aborts: a page whose client
   * went away is let go, so that no held request keeps its server from closing.
   */
  arrive(group: string, gone?: AbortSignal): Promise<void> {
    const g = this.#groups.get(group);
    if (!g?.held) return Promise.resolve();
    const here = new Promise<void>((resolve) => {
      g.held!.push(resolve);
      gone?.addEventListener("abort", () => {
        if (g.held?.includes(resolve)) g.held.splice(g.held.indexOf(resolve), 1);
        resolve();
      }, { once: true });
    });
    if (g.held.length >= g.size) {
      for (const release of g.held) release();
      g.held = null;
    }
    return here;
  }

  hit(name: string): void {
    this.seen.add(name);
    for (const w of this.#waiters.filter((w) => w.name === name)) {
      this.#waiters.splice(this.#waiters.indexOf(w), 1);
      w.resolve();
    }
  }

  reached(name: string): Promise<void> {
    if (this.seen.has(name)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ name, resolve }));
  }
}

function markApp(marks: Marks): SiteApp {
  const routes = new Hono<SandboxEnv>({ strict: false });
  routes.get("/:name", async (c) => {
    const name = c.req.param("name");
    const group = c.req.query("together");
    if (group) await marks.arrive(group, c.req.raw.signal);
    if (c.req.raw.signal.aborted) return c.text("gone", 503); // not reached: its episode never had the page
    marks.hit(name);
    const body = html`<h1>Mark ${name}</h1><a id="to-lab" href="/lab/">lab</a>`;
    return c.html(
      renderPage({
        title: `Mark ${name}`,
        app: "Mark",
        appHref: "/mark/x",
        now: c.get("clock").now().toISOString(),
        body,
      }),
    );
  });
  return {
    id: "mark",
    title: "Mark",
    description: "Pages that tell a test an episode reached them",
    seed: () => ({ schema: "CREATE TABLE unused (id INTEGER PRIMARY KEY)", rows: {} }),
    routes,
  };
}

/** The bundled apps, the lab and the mark app on 127.0.0.1 and `port` (0: a free one). */
export async function startFaultSites(port = 0, marks = new Marks()): Promise<FaultSites> {
  const server = await startSites({ apps: [...APPS, labApp, markApp(marks)], port });
  return {
    ...server,
    port: Number(new URL(server.base).port),
    reached: (name) => marks.reached(name),
    together: (group, size) => marks.together(group, size),
  };
}

/** results.jsonl against the episodes a run should hold: lines, duplicated and lost (task, repeat) keys. */
export interface Ledger {
  lines: number;
  duplicates: string[];
  lost: string[];
  /** Keys on no expected episode. */
  extra: string[];
}

/** Counts `results` (results.jsonl's lines) against the expected `task~repeat` keys. */
export function ledger(results: Record<string, unknown>[], expected: string[]): Ledger {
  const keys = results.map((r) => `${r.task_id}~${r.repeat ?? 0}`);
  const count = new Map<string, number>();
  for (const k of keys) count.set(k, (count.get(k) ?? 0) + 1);
  return {
    lines: results.length,
    duplicates: [...count].filter(([, n]) => n > 1).map(([k]) => k),
    lost: expected.filter((k) => !count.has(k)),
    extra: [...count.keys()].filter((k) => !expected.includes(k)),
  };
}

/** The ledger of a run that holds every expected episode once. */
export const whole = (expected: string[]): Ledger => ({ lines: expected.length, duplicates: [], lost: [], extra: [] });

/** `id~0` for each task id (one repeat). */
export const once = (ids: string[]): string[] => ids.map((id) => `${id}~0`);

/** Runs independent cases at once and fails with every case that failed, by name (none left running). */
export async function allCases(cases: Record<string, () => Promise<void>>): Promise<void> {
  const names = Object.keys(cases);
  const outcomes = await Promise.allSettled(names.map((n) => cases[n]()));
  const failed = outcomes.flatMap((o, i) =>
    o.status === "rejected" ? [`${names[i]}: ${o.reason?.stack ?? o.reason}`] : []
  );
  if (failed.length) throw new Error(`${failed.length} of ${names.length} cases failed:\n\n${failed.join("\n\n")}`);
}

/** Kills (SIGKILL) a spawned process on dispose unless it has ended, and waits for it: a failed test leaves none. */
export function reaped(child: Deno.ChildProcess): AsyncDisposable {
  let ended = false;
  child.status.then(() => (ended = true));
  return {
    async [Symbol.asyncDispose]() {
      if (!ended) {
        try {
          child.kill("SIGKILL");
        } catch { /* it ended just now */ }
      }
      await child.status;
    },
  };
}
