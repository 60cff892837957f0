/**
 * The field lists of docs/output-layout.md and docs/grading.md against a real run's files: every field a real
 * replay and noop run writes (results lines, run.json, grade_inputs.json, steps.jsonl, trace.json, rows) is named
 * in docs/output-layout.md, every app rule the grade inputs carry is in docs/grading.md's "App rules" table, and
 * every reason code a real failure carries is in its "Reason codes" table. (lib/run_folder/docs_test.ts holds the
 * docs to the schemas; this holds them to what a run really writes.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readResults, ROOT, runCli } from "./support/cli.ts";

const LAYOUT = await Deno.readTextFile(join(ROOT, "docs/output-layout.md"));
const GRADING = await Deno.readTextFile(join(ROOT, "docs/grading.md"));
const TASKS = "shop_review_burr_grinder,shop_answer_last_delivered_total,mail_search_lisbon";

/** The section of a doc under a heading, up to the next heading of its level or above. */
function section(doc: string, heading: string): string {
  const start = doc.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `no "${heading}"`);
  const level = heading.split(" ")[0];
  const rest = doc.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return end < 0 ? rest : rest.slice(0, end);
}

const documentedIn = (doc: string, key: string) => doc.includes(`\`${key}\``) || doc.includes(`\`${key}.`);

function undocumented(doc: string, keys: Iterable<string>): string[] {
  return [...new Set(keys)].filter((k) => !documentedIn(doc, k)).sort();
}

const keysOf = (objects: unknown[]) => objects.flatMap((o) => Object.keys(o as Record<string, unknown>));
const jsonLines = async (file: string) =>
  (await Deno.readTextFile(file)).split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));

Deno.test("every field a real run writes is in docs/output-layout.md; its rules and reasons in docs/grading.md", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-docs-fields-" });
  const replay = join(dir, "replay"), noop = join(dir, "noop");
  for (const [arm, out] of [["replay", replay], ["noop", noop]]) {
    const r = await runCli("eval.ts", ["--arm", arm, "--task-ids", TASKS, "--out", out, "--workers", "2"]);
    assert.equal(r.code, 0, r.stderr);
  }
  const results = [...await readResults(replay), ...await readResults(noop)];
  assert.equal(results.length, 6);
  const run = JSON.parse(await Deno.readTextFile(join(replay, "run.json")));
  const episodes = results.map((x) => join(x.arm === "noop" ? noop : replay, x.episode as string));
  const inputs = await Promise.all(
    episodes.map(async (e) => JSON.parse(await Deno.readTextFile(join(e, "grade_inputs.json")))),
  );
  const steps = (await Promise.all(episodes.map((e) => jsonLines(join(e, "steps.jsonl"))))).flat();
  const trace =
    (await Promise.all(episodes.map(async (e) => JSON.parse(await Deno.readTextFile(join(e, "trace.json")))))).flat();

  const results_ = section(LAYOUT, "## results.jsonl");
  assert.deepEqual(undocumented(results_, keysOf(results)), [], "results.jsonl fields");
  assert.deepEqual(
    undocumented(LAYOUT, [...keysOf([run]), ...keysOf([run.settings]), ...keysOf([run.tasks])]),
    [],
    "run.json",
  );
  assert.deepEqual(undocumented(section(LAYOUT, "## grade_inputs.json"), keysOf(inputs)), [], "grade_inputs.json");
  assert.deepEqual(undocumented(LAYOUT, keysOf(steps)), [], "steps.jsonl");
  assert.deepEqual(undocumented(LAYOUT, keysOf(trace)), [], "trace.json");

  const rules = inputs.flatMap((i) => Object.values((i.rules ?? {}) as Record<string, object>));
  assert.ok(rules.length > 0, "the grade inputs carry the apps' rules");
  assert.deepEqual(undocumented(section(GRADING, "### App rules"), keysOf(rules)), [], "app rules");
  const reasons = results.filter((x) => !x.ok).map((x) => x.reason as string);
  assert.equal(reasons.length, 3, "noop fails all three");
  assert.deepEqual(undocumented(section(GRADING, "## Reason codes"), reasons), [], "reason codes");
  await Deno.remove(dir, { recursive: true });
});
