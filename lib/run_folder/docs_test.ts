/**
 * docs/output-layout.md against the run-folder formats: each file's table lists exactly the fields its schema has
 * (a field the docs name exists, a field the schema has is documented), nested ones (`request.text`) included.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { gradeInputsSchema } from "../protocol/mod.ts";
import { gradeInputsFileSchema, judgeVerdictSchema, traceEntrySchema } from "./episode_files.ts";
import { lockSchema, manifestSchema } from "./manifest.ts";
import { pairedJsonSchema, rateJsonSchema, reportJsonSchema } from "./report_json.ts";
import { resultLineSchema } from "./results.ts";
import { exportSchema, rowSchema, rowsEpisodeSchema } from "./rows.ts";
import { stepRecordSchema } from "./steps.ts";

const DOC = await Deno.readTextFile(new URL("../../docs/output-layout.md", import.meta.url));

/** The object schemas a schema is made of (through arrays, pipes, unions, intersections, optional and nullable). */
function objects(schema: z.ZodType): z.ZodObject[] {
  if (schema instanceof z.ZodObject) return [schema];
  const def = schema.def as unknown as Record<string, z.ZodType | z.ZodType[] | undefined>;
  const parts = [def.in, def.out, def.element, def.left, def.right, def.innerType, ...(def.options ?? []) as []];
  return parts.filter((p): p is z.ZodType => p instanceof z.ZodType).flatMap(objects);
}

/** The field names of a schema, and of its nested objects as `parent.child`. */
function fieldsOf(schema: z.ZodType): Set<string> {
  const out = new Set<string>();
  for (const o of objects(schema)) {
    for (const [key, sub] of Object.entries(o.shape)) {
      out.add(key);
      for (const nested of objects(sub as z.ZodType)) for (const k of Object.keys(nested.shape)) out.add(`${key}.${k}`);
    }
  }
  return out;
}

/** The backticked names in the first column of the `index`-th table under `heading`. */
function documented(heading: string, index = 0): string[] {
  const start = DOC.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `docs/output-layout.md has no "${heading}"`);
  const level = heading.split(" ")[0];
  const rest = DOC.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  const section = end < 0 ? rest : rest.slice(0, end);
  const tables = [...section.matchAll(/(?:^|\n) *(\|[^\n]*(?:\n *\|[^\n]*)*)/g)].map((m) => m[1]);
  assert.ok(tables[index], `"${heading}" has no table ${index + 1}`);
  const rows = tables[index].split("\n").slice(2).map((r) => r.trim());
  return rows.flatMap((row) => [...row.split("|")[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

/** Each documented table: its heading, which table under it, the file it documents and that file's schema. */
const CASES: [string, number, string, z.ZodType][] = [
  ["## results.jsonl", 0, "results line", resultLineSchema],
  ["## run.json and run.lock", 0, "run.json", manifestSchema],
  ["## run.json and run.lock", 1, "run.lock", lockSchema],
  ["## grade_inputs.json", 0, "grade_inputs.json", gradeInputsFileSchema(gradeInputsSchema)],
  ["## steps.jsonl: the step record", 0, "step record", stepRecordSchema],
  ["## trace.json", 0, "trace.json entry", traceEntrySchema],
  ["## judge.json", 0, "judge.json", judgeVerdictSchema],
  ["### export.json", 0, "export.json", exportSchema],
  ["### rows.jsonl", 0, "training row", rowSchema],
  ["### episode.json", 0, "episode.json", rowsEpisodeSchema],
  ["### report.json", 0, "report.json", reportJsonSchema],
  ["### report.json", 1, "report.json pass rate", rateJsonSchema],
  ["### report.json", 2, "report.json paired comparison", pairedJsonSchema],
];

for (const [heading, index, what, schema] of CASES) {
  Deno.test(`docs/output-layout.md "${heading.replace(/^#+ /, "")}" lists exactly the ${what}'s fields`, () => {
    const fields = fieldsOf(schema);
    const docs = documented(heading, index);
    assert.deepEqual(docs.filter((d) => !fields.has(d)), [], "documented, but not in the schema");
    const top = [...fields].filter((f) => !f.includes("."));
    // A nested field is documented with its parent; the parent alone stands for them all.
    const covered = (f: string) => docs.includes(f) || docs.some((d) => d.startsWith(`${f}.`));
    assert.deepEqual(top.filter((f) => !covered(f)), [], "in the schema, but not documented");
  });
}

Deno.test("documented() reads a table's first column, and a misnamed field would be caught", () => {
  assert.ok(documented("## results.jsonl").includes("task_id"));
  assert.ok(!fieldsOf(resultLineSchema).has("task"), "a misspelling is not a field");
  assert.ok(fieldsOf(stepRecordSchema).has("request.system_sha256"));
});
