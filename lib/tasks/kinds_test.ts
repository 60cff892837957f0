/**
 * The task-kind registry on its own: every kind's grade inputs read back through parseGradeInputs and validate
 * against the one union on `kind`; a saved file without `kind` is a datagen episode's; an unknown kind is an error
 * naming the file.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { PROPOSED_TASK } from "./_testdata.ts";
import { gradeInputsSchema, kindName, type Task, taskIdSchema, taskSchema } from "../protocol/mod.ts";
import { type EpisodeRecord, type HumanGradeInputs, kindOf, KINDS, parseGradeInputs } from "./kinds.ts";
import { loadHumanTasks } from "./human_load.ts";
import { loadTasks } from "./load.ts";

const fixture = (path: string) => fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url));
const DATAGEN = (await loadTasks(fixture("tasks.jsonl")))[0] as Task;
const HUMAN = (await loadHumanTasks({ annotationsDir: fixture("annotations"), split: "all" }))[0];

const record: EpisodeRecord = {
  base: "http://127.0.0.1:9",
  streams: {
    record: [{ seq: 1, type: "observation", kind: "page_load", url: "http://127.0.0.1:9/shop/", t: 1 }],
    log: [{ seq: 2, method: "GET", path: "/shop/", query: {}, body: null, status: 200 }],
    changes: [],
    clipboard: [{ seq: 3, text: "SO-1" }],
  },
  trace: [{ action: [{ done: { text: "SO-1", success: true } }] }],
  answer: "SO-1",
  seen: ["Orders"],
  blocked: [],
  final: {
    url: "http://127.0.0.1:9/shop/",
    urls: ["http://127.0.0.1:9/shop/"],
    logged_in: true,
    start_logged_in: true,
  },
  rules: {},
};

Deno.test("kindOf() picks each task's strategy by its kind, a task without one being datagen", () => {
  assert.deepEqual([kindName(DATAGEN), kindName(HUMAN), kindName(PROPOSED_TASK)], ["datagen", "human", "proposed"]);
  assert.equal(kindOf(HUMAN), KINDS.human);
  assert.deepEqual(kindOf(PROPOSED_TASK).plan(PROPOSED_TASK), [PROPOSED_TASK.macro]);
});

Deno.test("every kind's grade inputs read back with their kind and validate against the union", () => {
  for (const task of [DATAGEN, HUMAN, PROPOSED_TASK]) {
    const kind = kindOf(task);
    const inputs = kind.collect(task, record);
    assert.equal(inputs.kind, kind.name);
    const saved = parseGradeInputs(JSON.stringify(inputs), "out/e/grade_inputs.json");
    assert.equal(saved.kind, kind);
    assert.equal(saved.inputs.task.task_id, task.task_id);
    assert.ok(gradeInputsSchema.safeParse(JSON.parse(JSON.stringify(inputs))).success, kind.name);
  }
});

Deno.test("human and proposed inputs keep the clipboard's entries as the admin protocol gave them, and its texts", () => {
  for (const task of [HUMAN, PROPOSED_TASK]) {
    const inputs = kindOf(task).collect(task, record) as { clipboard?: unknown; clip?: unknown };
    assert.deepEqual([inputs.clipboard, inputs.clip], [record.streams.clipboard, ["SO-1"]], task.task_id);
  }
});

Deno.test("grade inputs without kind are a datagen episode's; an unknown kind names the file", () => {
  const { kind: _, ...legacy } = KINDS.datagen.collect(DATAGEN, record);
  assert.equal(parseGradeInputs(legacy, "old/grade_inputs.json").kind, KINDS.datagen);
  assert.ok(gradeInputsSchema.safeParse(JSON.parse(JSON.stringify(legacy))).success);
  assert.throws(
    () => parseGradeInputs({ ...legacy, kind: "other" }, "out/e/grade_inputs.json"),
    /out\/e\/grade_inputs.json: kind: "other" is not one of datagen, human, proposed/,
  );
  assert.equal(gradeInputsSchema.safeParse({ ...legacy, kind: "other" }).success, false);
  assert.throws(
    () => parseGradeInputs("[]", "out/e/grade_inputs.json"),
    /out\/e\/grade_inputs.json: is not a JSON object/,
  );
});

Deno.test("a grade_inputs.json saved before end-state grading is a grade error that names what it lacks", async () => {
  const inputs = KINDS.datagen.collect(DATAGEN, record) as unknown as Record<string, unknown>;
  delete inputs.final;
  delete inputs.rules;
  const saved = parseGradeInputs(JSON.stringify(inputs), "out/old/grade_inputs.json");
  const verdict = await saved.kind.grade(saved.inputs, {});
  assert.equal(verdict.gradeError, true);
  assert.match(verdict.detail, /no final and rules \(saved before end-state grading\)/);
  const human = KINDS.human.collect(HUMAN, record) as unknown as Record<string, unknown>;
  delete human.rules;
  const again = parseGradeInputs(JSON.stringify(human), "out/old-h/grade_inputs.json");
  assert.match((await again.kind.grade(again.inputs, {})).detail, /no rules/);
});

Deno.test("a saved episode regraded with a check that binds its copy to the clipboard, but no clipboard entries, is a grade error", async () => {
  const file = fixture("run_folders/v1_demo/shop_copy_cancelled_order_number/grade_inputs.json");
  // Saved before clipboard entries were.
  const { inputs } = parseGradeInputs(JSON.parse(await Deno.readTextFile(file)), file);
  const task = (await loadTasks(fixture("tasks.jsonl"))).find((t) => t.task_id === "shop_copy_cancelled_order_number")!;
  const v = await kindOf(task).grade(inputs, { task });
  assert.equal(v.ok, false);
  assert.equal(v.gradeError, true);
  assert.match(v.detail, /no clipboard entries, which the task's check reads/);
  // The task it was saved with (no binding) grades it as it always did.
  assert.equal((await kindOf(task).grade(inputs, {})).ok, true);
});

Deno.test("parseGradeInputs() reads a saved task by its format, not by authoring rules added since it was saved", () => {
  const file = fixture("run_folders/v1_demo/tracker_answer_sprint14_points/grade_inputs.json");
  const value = JSON.parse(Deno.readTextFileSync(file));
  // Saved before `seen: false` needed a why, which a task line must now give.
  assert.equal(taskSchema.safeParse({ ...value.task, solution: [] }).success, false);
  assert.deepEqual(parseGradeInputs(value, file).inputs.task, value.task);
});

Deno.test("parseGradeInputs() reads a proposed episode's saved task by the proposed task format, naming the field", () => {
  const inputs = KINDS.proposed.collect(PROPOSED_TASK, record);
  const saved = JSON.parse(JSON.stringify(inputs));
  assert.deepEqual(parseGradeInputs(saved, "out/p/grade_inputs.json").inputs.task, PROPOSED_TASK);
  assert.throws(
    () => parseGradeInputs({ ...saved, task: { ...saved.task, start_path: "shop" } }, "out/p/grade_inputs.json"),
    /^HarnessError: out\/p\/grade_inputs\.json: task\.start_path: "shop" is not a path starting with "\/"/,
  );
});

Deno.test("parseGradeInputs() reads back a scripted variant's saved task, whose id no task line may have", () => {
  const file = fixture("run_folders/v1_demo/tracker_answer_sprint14_points/grade_inputs.json");
  const value = JSON.parse(Deno.readTextFileSync(file));
  // The proof and the near-miss suite run a variant as `<id>~nm~<name>`; a witness then reads its evidence back.
  const id = `${value.task.task_id}~nm~sibling`;
  assert.equal(taskIdSchema.safeParse(id).success, false);
  assert.equal(parseGradeInputs({ ...value, task: { ...value.task, task_id: id } }, file).inputs.task.task_id, id);
});

Deno.test("a saved human task reads back as the task it ran, each field it holds checked, older ones completed", () => {
  const saved = JSON.parse(JSON.stringify(KINDS.human.collect(HUMAN, record)));
  const file = "out/h/grade_inputs.json";
  // Nothing replays a saved task: its recording is not carried.
  assert.deepEqual(parseGradeInputs(saved, file).inputs.task, { ...HUMAN, recording: null });
  // A field of the wrong type is an error naming the file and the field, not a task cast as it is.
  assert.throws(
    () => parseGradeInputs({ ...saved, task: { ...saved.task, sites: HUMAN.site } }, file),
    /^HarnessError: out\/h\/grade_inputs\.json: task\.sites: /,
  );
  assert.throws(
    () => parseGradeInputs({ ...saved, task: { ...saved.task, needs_login: "yes" } }, file),
    /^HarnessError: out\/h\/grade_inputs\.json: task\.needs_login: /,
  );
  // Saved before `sites`, `macro`, `subtasks` and `needs_login` were added: the loader's values for a task without them.
  const { sites: _s, macro: _m, subtasks: _t, needs_login: _n, ...older } = saved.task;
  const { inputs } = parseGradeInputs({ ...saved, task: older }, file);
  assert.equal(inputs.kind, "human");
  const task = (inputs as HumanGradeInputs).task;
  assert.deepEqual(
    [task.sites, task.macro, task.subtasks, task.needs_login],
    [[HUMAN.site], HUMAN.macros.at(-1), null, false],
  );
});

Deno.test("a human or proposed episode's streams are checked on the way in and when read back, naming the field", () => {
  const bad = { ...record, streams: { ...record.streams, changes: [{ site: "shop", table: "orders" }] } };
  for (const task of [HUMAN, PROPOSED_TASK]) {
    assert.throws(
      () => kindOf(task).collect(task, bad),
      /^HarnessError: http:\/\/127\.0\.0\.1:9\/_admin\/\*: changes\[0\]/,
    );
    const saved = JSON.parse(JSON.stringify(kindOf(task).collect(task, record)));
    // A damaged change entry is an error naming the file, not a TypeError inside the verifier's state diff.
    assert.throws(
      () => parseGradeInputs({ ...saved, changes: [{ site: "shop", table: "orders", op: "upsert" }] }, "out/x/g.json"),
      /^HarnessError: out\/x\/g\.json: changes\[0\]/,
    );
  }
});
