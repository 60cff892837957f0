/**
 * The import boundaries the workspace members declare (lib/<area>/deno.json; docs/architecture.md), checked on the module graph that `deno info` sees from the entry
 * scripts and every lib/<area>/mod.ts: each area imports only the areas of its `webmix.uses` list, and only through their
 * mod.ts (at run time: a type-only import is erased before anything runs); grading, routing, tasks, run_folder,
 * results, regrade and judge never reach Chromium or the sites (and the first six never the model client), so a run
 * regrades offline; and the offline tools (regrade.ts, judge.ts, report.ts, viewer.ts, record_rows.ts, merge.ts)
 * reach neither lib/browser, lib/sites, puppeteer-core nor hono on the whole graph, type-only imports included, so
 * they type-check and run without them (and the four that only read a run, neither lib/llm, lib/dom, lib/grading nor
 * lib/tasks: they read with lib/protocol's formats). Each entry
 * script's module count is docs/architecture.md's, exactly. Test files and testdata may cross the boundaries (a test
 * serves pages, a DOM test drives Chromium).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  type BoundaryRules,
  checkBoundaries,
  type DenoInfo,
  fullGraph,
  loadErrors,
  mergeGraphs,
  moduleCounts,
  type ModuleGraph,
  runtimeGraph,
} from "./support/module_graph.ts";
import { architectureDiagram, readMembers } from "./support/workspace.ts";
import { runDeno } from "./support/cli.ts";

const ROOT_URL = new URL("../", import.meta.url).href;
const ROOT = fileURLToPath(ROOT_URL);
/** The entry scripts that read a finished run folder: offline on the whole graph. */
const OFFLINE_TOOLS = ["regrade.ts", "judge.ts", "report.ts", "viewer.ts", "record_rows.ts", "merge.ts"];
const ENTRIES = ["eval.ts", "gen.ts", "sites.ts", "mod.ts", ...OFFLINE_TOOLS];

/** The workspace's lib members: what each area may import directly at run time, and which npm packages. */
const MEMBERS = await readMembers(ROOT);
const DEPS: Record<string, string[]> = Object.fromEntries(MEMBERS.map((m) => [m.area, m.uses]));
/** Which areas declare each npm package other than zod (shared by all through the root deno.json). */
const PACKAGES: Record<string, string[]> = {};
for (const m of MEMBERS) for (const p of m.packages) if (p !== "npm:zod") (PACKAGES[p] ??= []).push(m.area);

const OFFLINE = ["lib/grading", "lib/routing", "lib/tasks", "lib/run_folder", "lib/results", "lib/regrade"];

/** What no offline tool may reach, even for its types. */
const BROWSER_AND_SITES = ["npm:puppeteer-core", "npm:hono", "lib/browser", "lib/sites"];

/** The tools that only read a finished run (no grade, no model): what they may not reach beyond the above. */
const READERS = ["report.ts", "viewer.ts", "record_rows.ts", "merge.ts"];
/** The areas those tools read a run with: formats from lib/protocol, no grading logic, no task kind. */
const READER_AREAS = ["lib/report", "lib/results"];

const RULES: BoundaryRules = {
  areaRoot: "lib",
  areas: DEPS,
  packages: PACKAGES,
  never: [
    { from: [...OFFLINE, "lib/judge", "lib/report", ...OFFLINE_TOOLS], reach: BROWSER_AND_SITES },
    { from: OFFLINE, reach: ["npm:openai", "lib/llm"] },
    // The run folder's formats load no task kind and no grading (its callers pass lib/tasks' reader).
    { from: ["lib/run_folder"], reach: ["lib/tasks", "lib/grading"] },
    // report.ts, viewer.ts, record_rows.ts and merge.ts run with --allow-read --allow-write: no model client either,
    // nor the page-side code.
    { from: ["lib/report", ...READERS], reach: ["npm:openai", "lib/llm", "lib/dom"] },
    // The report, the viewer, merge and the rows read grade_inputs.json through lib/protocol's formats: no grading
    // logic, no task kind (regrade is lib/regrade's, apart from lib/results).
    { from: [...READER_AREAS, ...READERS], reach: ["lib/grading", "lib/tasks"] },
  ],
  // lib/gen/templates/<app>.ts describe one app each in its own vocabulary (its labels, sort keys, slot grid, price
  // rules): like testdata, they read that app's modules directly, so a generated task follows the page that shows it.
  exempt: [/_test\.ts$/, /(^|\/)_?testdata(\/|\.ts$)/, /^tests\//, /^bench\//, /^lib\/gen\/templates\//],
};

async function denoInfo(file: string): Promise<DenoInfo> {
  const out = await runDeno(["info", "--json", file], { cwd: ROOT });
  if (out.code !== 0) throw new Error(`deno info ${file} exited ${out.code}: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

async function libAreas(): Promise<string[]> {
  const areas: string[] = [];
  for await (const e of Deno.readDir(`${ROOT}lib`)) if (e.isDirectory) areas.push(e.name);
  return areas.sort();
}

/** Every .ts file under lib/, root-relative. */
async function libSources(dir = "lib"): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await libSources(path));
    else if (e.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/**
 * The graphs from the entry scripts and every lib/<area>/mod.ts, then from any non-test lib file none of them loads
 * (a helper a mod.ts does not export is still bound by its area's rules): the run-time graph, and the whole graph
 * with the type-only imports.
 */
async function realGraph(): Promise<{ graph: ModuleGraph; full: ModuleGraph; errors: string[] }> {
  const infos: DenoInfo[] = [];
  const add = async (files: string[]) => infos.push(...await Promise.all(files.map(denoInfo)));
  await add([...ENTRIES, ...(await libAreas()).map((a) => `lib/${a}/mod.ts`)]);
  const seen = mergeGraphs(infos.map((i) => fullGraph(i, ROOT_URL)));
  const exempt = (m: string) => RULES.exempt!.some((re) => re.test(m));
  await add((await libSources()).filter((f) => !(f in seen) && !exempt(f)));
  return {
    graph: mergeGraphs(infos.map((i) => runtimeGraph(i, ROOT_URL))),
    full: mergeGraphs(infos.map((i) => fullGraph(i, ROOT_URL))),
    errors: [...new Set(infos.flatMap((i) => loadErrors(i, ROOT_URL)))],
  };
}

// Built once, on first use, so the checker's own tests below still run when the real graph cannot be loaded.
let real: ReturnType<typeof realGraph> | undefined;
const realOnce = () => real ??= realGraph();

Deno.test("every folder under lib/ is a workspace member, and only browser, llm and sites own a package", async () => {
  assert.deepEqual(Object.keys(DEPS).sort(), await libAreas());
  assert.deepEqual(PACKAGES, { "npm:puppeteer-core": ["browser"], "npm:openai": ["llm"], "npm:hono": ["sites"] });
});

Deno.test("docs/architecture.md's diagram is the one the members' deno.json files give", async () => {
  const doc = await Deno.readTextFile(`${ROOT}docs/architecture.md`);
  const diagram = architectureDiagram(MEMBERS);
  assert.ok(doc.includes(`\n${diagram}\n─`), `docs/architecture.md should hold, between its rules:\n${diagram}`);
});

Deno.test("docs/architecture.md states each entry script's module count, exactly as deno info gives it", async () => {
  const doc = await Deno.readTextFile(`${ROOT}docs/architecture.md`);
  const counts = moduleCounts((await realOnce()).full, ENTRIES);
  assert.ok(doc.includes(`\n${counts}\n`), `docs/architecture.md should hold:\n${counts}`);
});

Deno.test("deno info loads the whole graph and sees the npm packages", async () => {
  const loaded = await realOnce();
  assert.deepEqual(loaded.errors, []);
  for (const f of [...ENTRIES, ...Object.keys(DEPS).map((a) => `lib/${a}/mod.ts`)]) assert.ok(f in loaded.graph, f);
  const users = (pkg: string) => Object.keys(loaded.graph).filter((m) => loaded.graph[m].includes(pkg));
  assert.ok(
    users("npm:puppeteer-core").some((m) => m.startsWith("lib/browser/")),
    "no lib/browser module loads puppeteer",
  );
  assert.ok(users("npm:openai").some((m) => m.startsWith("lib/llm/")), "no lib/llm module loads openai");
});

Deno.test("the module graph keeps every import boundary", async () => {
  assert.deepEqual(checkBoundaries((await realOnce()).graph, RULES), []);
});

Deno.test("the whole graph, type-only imports included, keeps every boundary: offline tools reach no browser", async () => {
  assert.deepEqual(checkBoundaries((await realOnce()).full, RULES), []);
});

Deno.test("the real graph breaks stricter rules, so the check above is not vacuous", async () => {
  const stricter: BoundaryRules = {
    ...RULES,
    areas: { ...DEPS, run: DEPS.run.filter((a) => a !== "browser") },
    never: [{ from: ["regrade.ts"], reach: ["npm:openai"] }, {
      from: ["regrade.ts", "judge.ts"],
      reach: ["lib/grading"],
    }],
  };
  const v = checkBoundaries((await realOnce()).graph, stricter);
  // regrade.ts and judge.ts grade, so they reach lib/grading: the rule on the readers, above, would see such a path.
  for (const tool of ["regrade.ts", "judge.ts"]) {
    assert.ok(v.some((s) => s.startsWith(`${tool} reaches lib/grading via ${tool} -> `)), v.join("\n"));
  }
  assert.ok(v.some((s) => /^lib\/run\/\S+ imports lib\/browser\/mod\.ts: run may import only /.test(s)), v.join("\n"));
  assert.ok(
    v.some((s) => /^regrade\.ts reaches npm:openai via regrade\.ts -> .* -> npm:openai$/.test(s)),
    v.join("\n"),
  );
});

// Source checks the graph cannot make: which modules call the network and process APIs themselves.
const SOURCES = await Promise.all(
  (await libSources()).filter((p) => !RULES.exempt!.some((re) => re.test(p))).map(async (path) => ({
    path,
    text: await Deno.readTextFile(`${ROOT}${path}`),
  })),
);

Deno.test("only lib/sites serves HTTP", () => {
  const bad = SOURCES.filter((f) => /Deno\.serve\(/.test(f.text) && !f.path.startsWith("lib/sites/"));
  assert.deepEqual(bad.map((f) => f.path), []);
});

Deno.test("grading, routing and tasks call no network, process or file-writing API", () => {
  const bad = SOURCES.filter((f) =>
    /^lib\/(grading|routing|tasks)\//.test(f.path) &&
    /\bfetch\(|Deno\.(serve|Command|writeTextFile|writeFile|connect)\b/.test(f.text)
  );
  assert.deepEqual(bad.map((f) => f.path), []);
});

// The checker on small graphs: each broken rule is reported, with the path that breaks it.

/** The legal core of the real graph, for the cases below to break. */
const BASE: ModuleGraph = {
  "regrade.ts": ["lib/errors/mod.ts", "lib/regrade/mod.ts", "lib/tasks/mod.ts"],
  "lib/regrade/mod.ts": ["lib/results/mod.ts", "lib/tasks/mod.ts"],
  "lib/errors/mod.ts": [],
  "lib/grading/mod.ts": ["lib/errors/mod.ts", "lib/grading/gate.ts"],
  "lib/grading/gate.ts": ["lib/errors/mod.ts"],
  "lib/tasks/mod.ts": ["lib/grading/mod.ts", "lib/tasks/kinds.ts"],
  "lib/tasks/kinds.ts": ["lib/grading/mod.ts", "npm:zod"],
  "lib/results/mod.ts": ["lib/errors/mod.ts"],
  "lib/browser/mod.ts": ["lib/browser/_tab.ts", "lib/dom/mod.ts", "npm:puppeteer-core"],
  "lib/browser/_tab.ts": ["npm:puppeteer-core"],
  "lib/dom/mod.ts": [],
  "lib/sites/mod.ts": ["lib/sites/apps/mod.ts", "npm:hono"],
  "lib/sites/apps/mod.ts": ["npm:hono"],
  "lib/run/mod.ts": ["lib/browser/mod.ts", "lib/sites/mod.ts", "lib/tasks/mod.ts"],
  "npm:puppeteer-core": [],
  "npm:hono": [],
  "npm:zod": [],
};

const withEdges = (edges: Record<string, string[]>): ModuleGraph => {
  const g = structuredClone(BASE);
  for (const [from, to] of Object.entries(edges)) g[from] = [...(g[from] ?? []), ...to];
  return g;
};

Deno.test("checkBoundaries() passes the legal graph and lets tests and testdata cross boundaries", () => {
  assert.deepEqual(checkBoundaries(BASE, RULES), []);
  const g = withEdges({
    "lib/grading/gate_test.ts": ["lib/browser/_tab.ts"],
    "lib/sites/testdata/notes_app.ts": ["lib/run/mod.ts"],
  });
  assert.deepEqual(checkBoundaries(g, RULES), []);
});

Deno.test("checkBoundaries() reports regrade.ts reaching puppeteer through legal imports", () => {
  const g = withEdges({ "regrade.ts": ["lib/run/mod.ts"] });
  assert.deepEqual(checkBoundaries(g, RULES), [
    "regrade.ts reaches lib/browser via regrade.ts -> lib/run/mod.ts -> lib/browser/mod.ts",
    "regrade.ts reaches lib/sites via regrade.ts -> lib/run/mod.ts -> lib/sites/mod.ts",
    "regrade.ts reaches npm:hono via regrade.ts -> lib/run/mod.ts -> lib/sites/mod.ts -> npm:hono",
    "regrade.ts reaches npm:puppeteer-core via regrade.ts -> lib/run/mod.ts -> lib/browser/mod.ts -> npm:puppeteer-core",
  ]);
});

Deno.test("checkBoundaries() reports regrade.ts reaching the sites through lib/results", () => {
  const g = withEdges({ "lib/results/mod.ts": ["lib/results/store.ts"], "lib/results/store.ts": ["lib/sites/mod.ts"] });
  assert.deepEqual(checkBoundaries(g, RULES), [
    "lib/regrade reaches lib/sites via lib/regrade/mod.ts -> lib/results/mod.ts -> lib/results/store.ts -> " +
    "lib/sites/mod.ts",
    "lib/regrade reaches npm:hono via lib/regrade/mod.ts -> lib/results/mod.ts -> lib/results/store.ts -> " +
    "lib/sites/mod.ts -> npm:hono",
    "lib/results reaches lib/sites via lib/results/store.ts -> lib/sites/mod.ts",
    "lib/results reaches npm:hono via lib/results/store.ts -> lib/sites/mod.ts -> npm:hono",
    "lib/results/store.ts imports lib/sites/mod.ts: results may import only errors, io, protocol, run_folder",
    "regrade.ts reaches lib/sites via regrade.ts -> lib/regrade/mod.ts -> lib/results/mod.ts -> lib/results/store.ts " +
    "-> lib/sites/mod.ts",
    "regrade.ts reaches npm:hono via regrade.ts -> lib/regrade/mod.ts -> lib/results/mod.ts -> lib/results/store.ts " +
    "-> lib/sites/mod.ts -> npm:hono",
  ]);
});

Deno.test("checkBoundaries() reports viewer.ts reaching grading logic when lib/report reads with lib/tasks", () => {
  // lib/report reading grade_inputs.json with lib/tasks' registry again (how the viewer once did).
  const g = withEdges({
    "viewer.ts": ["lib/report/mod.ts"],
    "lib/report/mod.ts": ["lib/report/viewer_data.ts"],
    "lib/report/viewer_data.ts": ["lib/tasks/mod.ts"],
  });
  assert.deepEqual(checkBoundaries(g, RULES), [
    "lib/report reaches lib/grading via lib/report/viewer_data.ts -> lib/tasks/mod.ts -> lib/grading/mod.ts",
    "lib/report reaches lib/tasks via lib/report/viewer_data.ts -> lib/tasks/mod.ts",
    "lib/report/viewer_data.ts imports lib/tasks/mod.ts: report may import only errors, io, protocol, run_folder",
    "viewer.ts reaches lib/grading via viewer.ts -> lib/report/mod.ts -> lib/report/viewer_data.ts -> lib/tasks/mod.ts " +
    "-> lib/grading/mod.ts",
    "viewer.ts reaches lib/tasks via viewer.ts -> lib/report/mod.ts -> lib/report/viewer_data.ts -> lib/tasks/mod.ts",
  ]);
});

Deno.test("checkBoundaries() reports record_rows.ts reaching grading when lib/results asks lib/tasks for row specs", () => {
  // lib/results labelling rows with lib/tasks' registry again (how the rows once did).
  const g = withEdges({
    "record_rows.ts": ["lib/results/mod.ts"],
    "lib/results/mod.ts": ["lib/results/export_rows.ts"],
    "lib/results/export_rows.ts": ["lib/tasks/mod.ts"],
  });
  assert.deepEqual(checkBoundaries(g, RULES), [
    "lib/results reaches lib/grading via lib/results/export_rows.ts -> lib/tasks/mod.ts -> lib/grading/mod.ts",
    "lib/results reaches lib/tasks via lib/results/export_rows.ts -> lib/tasks/mod.ts",
    "lib/results/export_rows.ts imports lib/tasks/mod.ts: results may import only errors, io, protocol, run_folder",
    "record_rows.ts reaches lib/grading via record_rows.ts -> lib/results/mod.ts -> lib/results/export_rows.ts -> " +
    "lib/tasks/mod.ts -> lib/grading/mod.ts",
    "record_rows.ts reaches lib/tasks via record_rows.ts -> lib/results/mod.ts -> lib/results/export_rows.ts -> " +
    "lib/tasks/mod.ts",
  ]);
});

Deno.test("checkBoundaries() reports lib/grading reaching lib/browser through another area", () => {
  const g = withEdges({ "lib/errors/mod.ts": ["lib/browser/mod.ts"] });
  const v = checkBoundaries(g, RULES);
  assert.ok(v.includes("lib/errors/mod.ts imports lib/browser/mod.ts: errors may import no other area"), v.join("\n"));
  assert.ok(
    v.includes("lib/grading reaches lib/browser via lib/grading/gate.ts -> lib/errors/mod.ts -> lib/browser/mod.ts"),
    v.join("\n"),
  );
  assert.ok(
    v.includes(
      "lib/grading reaches npm:puppeteer-core via lib/grading/gate.ts -> lib/errors/mod.ts -> lib/browser/mod.ts " +
        "-> npm:puppeteer-core",
    ),
    v.join("\n"),
  );
});

Deno.test("checkBoundaries() reports an import of another area's private file", () => {
  const g = withEdges({
    "lib/run/mod.ts": ["lib/tasks/kinds.ts", "lib/browser/_tab.ts"],
    "regrade.ts": ["lib/grading/gate.ts"],
  });
  assert.deepEqual(checkBoundaries(g, RULES), [
    "lib/run/mod.ts imports lib/browser/_tab.ts: import lib/browser through lib/browser/mod.ts",
    "lib/run/mod.ts imports lib/tasks/kinds.ts: import lib/tasks through lib/tasks/mod.ts",
    "regrade.ts imports lib/grading/gate.ts: import lib/grading through lib/grading/mod.ts",
  ]);
});

Deno.test("checkBoundaries() reports a package imported outside its area, and an unknown area", () => {
  const g = withEdges({ "lib/run/mod.ts": ["npm:puppeteer-core"], "lib/human/mod.ts": ["lib/errors/mod.ts"] });
  assert.deepEqual(checkBoundaries(g, RULES), [
    "lib/human/mod.ts is in lib/human, which is not a known area (add it to the rules)",
    "lib/run/mod.ts imports npm:puppeteer-core: only lib/browser may",
  ]);
});

/** A `deno info --json` module whose imports are [specifier, which of code/type] pairs. */
function infoModule(path: string, deps: [string, ("code" | "type")[]][]): DenoInfo["modules"][number] {
  return {
    kind: "esm",
    specifier: ROOT_URL + path,
    dependencies: deps.map(([to, kinds]) => {
      const target = to.startsWith("npm:") ? to : ROOT_URL + to;
      return { specifier: to, ...Object.fromEntries(kinds.map((k) => [k, { specifier: target }])) };
    }),
  };
}

Deno.test("runtimeGraph() drops type-only imports, so they break no boundary", () => {
  const info: DenoInfo = {
    modules: [
      // import type { Page } from "../browser/mod.ts";  import { z } from "zod";
      infoModule("lib/grading/evidence.ts", [["lib/browser/mod.ts", ["type"]], ["npm:zod@^4", ["code"]]]),
      // import type { Task } from "./task.ts";  import { parseTask } from "./task.ts";
      infoModule("lib/tasks/kinds.ts", [["lib/tasks/task.ts", ["code", "type"]]]),
      infoModule("lib/browser/mod.ts", [["npm:puppeteer-core@^25", ["code"]]]),
      { kind: "npm", specifier: "npm:/zod@4.6.7" },
      { kind: "npm", specifier: "npm:/puppeteer-core@25.16.0" },
    ],
    redirects: { "npm:zod@^4": "npm:/zod@4.6.7", "npm:puppeteer-core@^25": "npm:/puppeteer-core@25.16.0" },
  };
  const graph = runtimeGraph(info, ROOT_URL);
  assert.deepEqual(graph["lib/grading/evidence.ts"], ["npm:zod"]);
  assert.deepEqual(graph["lib/tasks/kinds.ts"], ["lib/tasks/task.ts"]);
  assert.deepEqual(graph["lib/browser/mod.ts"], ["npm:puppeteer-core"]);
  assert.deepEqual(checkBoundaries(graph, RULES), []);

  // The same import as a value import counts.
  info.modules[0] = infoModule("lib/grading/evidence.ts", [["lib/browser/mod.ts", ["code", "type"]]]);
  assert.deepEqual(checkBoundaries(runtimeGraph(info, ROOT_URL), RULES), [
    "lib/grading reaches lib/browser via lib/grading/evidence.ts -> lib/browser/mod.ts",
    "lib/grading reaches npm:puppeteer-core via lib/grading/evidence.ts -> lib/browser/mod.ts -> npm:puppeteer-core",
    "lib/grading/evidence.ts imports lib/browser/mod.ts: grading may import only errors, protocol",
  ]);
});

Deno.test("fullGraph() keeps type-only imports: report.ts reaching puppeteer's types through a step record's type", () => {
  const info: DenoInfo = {
    modules: [
      infoModule("report.ts", [["lib/report/mod.ts", ["code"]]]),
      // import type { StepRecord } from "../agent/mod.ts": how the viewer once read steps.jsonl.
      infoModule("lib/report/mod.ts", [["lib/agent/mod.ts", ["type"]]]),
      infoModule("lib/agent/mod.ts", [["lib/browser/mod.ts", ["type"]]]),
      infoModule("lib/browser/mod.ts", [["npm:puppeteer-core@^25", ["code"]]]),
      { kind: "npm", specifier: "npm:/puppeteer-core@25.16.0" },
    ],
    redirects: { "npm:puppeteer-core@^25": "npm:/puppeteer-core@25.16.0" },
  };
  assert.deepEqual(checkBoundaries(runtimeGraph(info, ROOT_URL), RULES), [], "erased at run time");
  assert.deepEqual(checkBoundaries(fullGraph(info, ROOT_URL), RULES), [
    "lib/report reaches lib/browser via lib/report/mod.ts -> lib/agent/mod.ts -> lib/browser/mod.ts",
    "lib/report reaches npm:puppeteer-core via lib/report/mod.ts -> lib/agent/mod.ts -> lib/browser/mod.ts -> " +
    "npm:puppeteer-core",
    "lib/report/mod.ts imports lib/agent/mod.ts: report may import only errors, io, protocol, run_folder",
    "report.ts reaches lib/browser via report.ts -> lib/report/mod.ts -> lib/agent/mod.ts -> lib/browser/mod.ts",
    "report.ts reaches npm:puppeteer-core via report.ts -> lib/report/mod.ts -> lib/agent/mod.ts -> " +
    "lib/browser/mod.ts -> npm:puppeteer-core",
  ]);
});
