/**
 * Import boundaries checked on the module graph (docs/architecture.md), the way playwright keeps a DEPS list per
 * folder. Pure: `runtimeGraph` turns `deno info --json` output into `{ module: [runtime deps] }`, and
 * `checkBoundaries` returns every broken rule as a sentence that names the path. tests/boundaries_test.ts runs
 * `deno info` and feeds it here.
 *
 * Modules are named relative to the repository root (`regrade.ts`, `lib/tasks/mod.ts`); npm and jsr packages by
 * their bare name (`npm:puppeteer-core`, `npm:@scope/name`); anything else by its specifier.
 */

/** `{ module: [modules it loads at run time] }`: type-only imports are already dropped. */
export type ModuleGraph = Record<string, string[]>;

/** The part of `deno info --json` this module reads. */
export interface DenoInfo {
  roots?: string[];
  modules: DenoInfoModule[];
  redirects?: Record<string, string>;
}

export interface DenoInfoModule {
  specifier: string;
  kind?: string;
  error?: string;
  dependencies?: DenoInfoDependency[];
}

/**
 * One import of a module. `code` is set when the import survives to run time, `type` when it also (or only)
 * feeds the type checker: `import type { A } from "./a.ts"` and `export type { A } from "./a.ts"` give only
 * `type`; `import { type A } from "./a.ts"` gives `code` (deno keeps the import), as does `import()` of a
 * literal (with `isDynamic`).
 */
export interface DenoInfoDependency {
  specifier: string;
  code?: { specifier: string };
  type?: { specifier: string };
  isDynamic?: boolean;
}

export interface Reach {
  /** Modules (`regrade.ts`) or folders (`lib/grading`): every non-exempt module at or under them. */
  from: readonly string[];
  /** Modules, folders or packages (`npm:openai`) none of them may load, even through others. */
  reach: readonly string[];
}

export interface BoundaryRules {
  /** The folder whose subfolders are the areas: `lib`. */
  areaRoot: string;
  /** Area → the other areas its modules may import directly (at run time). */
  areas: Readonly<Record<string, readonly string[]>>;
  /** Package → the areas that alone may import it directly. */
  packages?: Readonly<Record<string, readonly string[]>>;
  /** Transitive bans. */
  never?: readonly Reach[];
  /** Modules no rule applies to as importers or starting points (tests, testdata). */
  exempt?: readonly RegExp[];
}

/** The package a specifier belongs to: `npm:/zod@4.6.7/mini` and `npm:zod@^4` are both `npm:zod`. */
export function packageName(specifier: string): string | undefined {
  const m = /^(npm|jsr):\/?(@[^/@]+\/[^/@]+|[^/@]+)/.exec(specifier);
  return m ? `${m[1]}:${m[2]}` : undefined;
}

/** A module's name in the graph: root-relative for files under `rootUrl`, a package name, or the specifier. */
export function moduleName(specifier: string, rootUrl: string): string {
  const root = rootUrl.endsWith("/") ? rootUrl : rootUrl + "/";
  if (specifier.startsWith(root)) return decodeURIComponent(specifier.slice(root.length));
  return packageName(specifier) ?? specifier;
}

/** The run-time graph of `deno info --json` output: every module, with the imports that survive type erasure. */
export function runtimeGraph(info: DenoInfo, rootUrl: string): ModuleGraph {
  return moduleGraph(info, rootUrl, { types: false });
}

/**
 * The whole graph of `deno info --json` output: run-time imports and type-only ones (`import type`), as the type
 * checker loads them. An offline tool that reaches puppeteer only for its types still needs it to type-check.
 */
export function fullGraph(info: DenoInfo, rootUrl: string): ModuleGraph {
  return moduleGraph(info, rootUrl, { types: true });
}

function moduleGraph(info: DenoInfo, rootUrl: string, options: { types: boolean }): ModuleGraph {
  const redirects = info.redirects ?? {};
  const graph: ModuleGraph = {};
  for (const mod of info.modules) {
    const deps = new Set<string>();
    for (const dep of mod.dependencies ?? []) {
      // A type-only import is erased before the module runs: only the whole graph counts it.
      for (const to of [dep.code, options.types ? dep.type : undefined]) {
        if (to) deps.add(moduleName(redirects[to.specifier] ?? to.specifier, rootUrl));
      }
    }
    const name = moduleName(mod.specifier, rootUrl);
    graph[name] = [...new Set([...(graph[name] ?? []), ...deps])].sort();
  }
  return graph;
}

/** The modules `deno info` could not load, as `module: error` (a graph with holes cannot be vouched for). */
export function loadErrors(info: DenoInfo, rootUrl: string): string[] {
  return info.modules.filter((m) => m.error).map((m) => `${moduleName(m.specifier, rootUrl)}: ${m.error}`);
}

/** The union of several graphs (one per `deno info` root). */
export function mergeGraphs(graphs: Iterable<ModuleGraph>): ModuleGraph {
  const out: ModuleGraph = {};
  for (const g of graphs) {
    for (const [mod, deps] of Object.entries(g)) out[mod] = [...new Set([...(out[mod] ?? []), ...deps])].sort();
  }
  return out;
}

/** The suite's own modules `entry` loads (itself included; npm packages and node: built-ins left out), sorted. */
export function localModules(graph: ModuleGraph, entry: string): string[] {
  const seen = new Set<string>([entry]);
  for (const mod of seen) for (const dep of graph[mod] ?? []) if (!/^[a-z]+:/.test(dep)) seen.add(dep);
  return [...seen].sort();
}

/**
 * docs/architecture.md's module-count lines: each entry script's local modules on `graph`, then how many of them
 * each area holds (`.` for the entry scripts and other files outside lib/).
 */
export function moduleCounts(graph: ModuleGraph, entries: readonly string[]): string {
  const width = Math.max(...entries.map((e) => e.length)) + 4;
  return entries.map((entry) => {
    const mods = localModules(graph, entry);
    const byArea = new Map<string, number>();
    for (const m of mods) {
      const area = areaOf(m, "lib") ?? ".";
      byArea.set(area, (byArea.get(area) ?? 0) + 1);
    }
    const areas = [...byArea].sort(([a], [b]) => a.localeCompare(b)).map(([a, n]) => `${a} ${n}`).join(", ");
    return `${(entry + " ").padEnd(width, ".")} ${String(mods.length).padStart(3)}   ${areas}`;
  }).join("\n");
}

/** Is `mod` the selector itself or under it (`lib/sites` covers `lib/sites/apps/mod.ts`)? */
function under(mod: string, selector: string): boolean {
  return mod === selector || mod.startsWith(selector.endsWith("/") ? selector : selector + "/");
}

/** The area of a module: `run` for `lib/run/run.ts`, undefined outside the area root. */
function areaOf(mod: string, areaRoot: string): string | undefined {
  const prefix = areaRoot + "/";
  if (!mod.startsWith(prefix)) return undefined;
  const rest = mod.slice(prefix.length);
  const slash = rest.indexOf("/");
  return slash < 0 ? undefined : rest.slice(0, slash);
}

/** Every broken rule of `graph`, one sentence each, sorted. Empty when the graph keeps its boundaries. */
export function checkBoundaries(graph: ModuleGraph, rules: BoundaryRules): string[] {
  const exempt = (mod: string) => (rules.exempt ?? []).some((re) => re.test(mod));
  const out = new Set<string>();
  for (const [mod, deps] of Object.entries(graph)) {
    if (exempt(mod)) continue;
    for (const v of directViolations(mod, deps, rules)) out.add(v);
  }
  for (const rule of rules.never ?? []) {
    for (const from of rule.from) {
      const starts = Object.keys(graph).filter((m) => under(m, from) && !exempt(m)).sort();
      for (const target of rule.reach) {
        const path = shortestPath(graph, starts, (m) => under(m, target));
        if (path) out.add(`${from} reaches ${target} via ${path.join(" -> ")}`);
      }
    }
  }
  return [...out].sort();
}

/** Rules on one module's own imports: its area's allow-list, public faces, package owners, known areas. */
function directViolations(mod: string, deps: readonly string[], rules: BoundaryRules): string[] {
  const out: string[] = [];
  const own = areaOf(mod, rules.areaRoot);
  if (own !== undefined && !(own in rules.areas)) {
    out.push(`${mod} is in ${rules.areaRoot}/${own}, which is not a known area (add it to the rules)`);
  }
  const allowed = own === undefined ? undefined : rules.areas[own];
  for (const dep of deps) {
    const area = areaOf(dep, rules.areaRoot);
    if (area !== undefined && area !== own) {
      if (allowed && !allowed.includes(area)) {
        const list = allowed.length ? `only ${allowed.join(", ")}` : "no other area";
        out.push(`${mod} imports ${dep}: ${own} may import ${list}`);
      }
      const face = `${rules.areaRoot}/${area}/mod.ts`;
      if (dep !== face) out.push(`${mod} imports ${dep}: import ${rules.areaRoot}/${area} through ${face}`);
    }
    const owners = rules.packages?.[dep];
    if (owners && !(own !== undefined && owners.includes(own))) {
      out.push(`${mod} imports ${dep}: only ${owners.map((a) => `${rules.areaRoot}/${a}`).join(", ")} may`);
    }
  }
  return out;
}

/** Breadth-first from `starts` to the first module `hit` accepts; the path includes both ends. */
function shortestPath(graph: ModuleGraph, starts: string[], hit: (mod: string) => boolean): string[] | undefined {
  const parent = new Map<string, string | null>();
  const queue: string[] = [];
  for (const s of starts) {
    if (!parent.has(s)) {
      parent.set(s, null);
      queue.push(s);
    }
  }
  for (let i = 0; i < queue.length; i++) {
    const mod = queue[i];
    if (hit(mod)) {
      const path: string[] = [];
      for (let m: string | null = mod; m !== null; m = parent.get(m) ?? null) path.unshift(m);
      return path;
    }
    for (const dep of graph[mod] ?? []) {
      if (!parent.has(dep)) {
        parent.set(dep, mod);
        queue.push(dep);
      }
    }
  }
  return undefined;
}
