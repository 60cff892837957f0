/** Proposed tasks: the bundled file, loader errors, and grade inputs (the proposed kind of the registry). */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { TaskFormatError } from "../errors/mod.ts";
import { KINDS, PROPOSED_PENDING } from "./kinds.ts";
import { loadTasks } from "./load.ts";
import type { ProposedTask } from "../protocol/mod.ts";
import { PROPOSED_TASK } from "./_testdata.ts";

const BUNDLED = fileURLToPath(new URL("../../fixtures/proposed/tasks.jsonl", import.meta.url));

/** The proposed tasks of a task file; every line must be one. */
async function loadProposedTasks(file: string): Promise<ProposedTask[]> {
  const tasks = await loadTasks(file);
  return tasks.map((t) => {
    assert.equal((t as { kind?: string }).kind, "proposed", `${t.task_id} is a proposed task`);
    return t as ProposedTask;
  });
}

Deno.test("loadTasks() reads the bundled proposed tasks", async () => {
  const tasks = await loadProposedTasks(BUNDLED);
  assert.ok(tasks.length >= 3 && tasks.length <= 5, `${tasks.length} tasks`);
  for (const t of tasks) assert.match(t.start_path, new RegExp(`^/${t.site}/`));
  assert.deepEqual(tasks[2].option, { issue: "API-17", column: "Done" });
  assert.equal(tasks[0].option, null);
});

async function loadText(text: string): Promise<TaskFormatError> {
  const file = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(file, text);
    await loadTasks(file);
  } catch (err) {
    assert.ok(err instanceof TaskFormatError, String(err));
    assert.equal(err.file, file);
    return err;
  } finally {
    await Deno.remove(file);
  }
  throw new Error("accepted a malformed proposed task");
}

Deno.test("loadTasks() errors on proposed lines name the file, the line and the field", async () => {
  const good = {
    kind: "proposed",
    task_id: "p1",
    site: "shop",
    macro: "search",
    instruction: "x",
    start_path: "/shop/",
  };
  let e = await loadText(`\n${JSON.stringify({ ...good, start_path: "shop/" })}\n`);
  assert.match(e.message, /\.jsonl line 2: task "p1": start_path: "shop\/" is not a path starting with "\/"/);
  assert.equal(e.line, 2);
  e = await loadText(JSON.stringify({ ...good, start_path: "//evil.example/x" }));
  assert.match(e.message, /start_path: "\/\/evil\.example\/x" names another host, outside the sandbox/);
  e = await loadText(JSON.stringify({ ...good, task_id: "../p1" }));
  assert.match(e.message, /task_id: "\.\.\/p1" holds "\/" \(a task id names its episode's folder/);
  e = await loadText(JSON.stringify({ ...good, kind: "human" }));
  assert.match(e.message, /line 1: task "p1": kind: /);
  e = await loadText(JSON.stringify({ ...good, macro: "serch" }));
  assert.match(e.message, /macro: "serch" is not a macro \(did you mean "search"\?\)/);
  e = await loadText(`${JSON.stringify(good)}\n${JSON.stringify(good)}`);
  assert.match(e.message, /line 2: task "p1": duplicate task_id/);
  e = await loadText("{oops");
  assert.match(e.message, /line 1: not JSON/);
});

const TASK = PROPOSED_TASK;

Deno.test("the proposed kind keeps the session's evidence for the judge; the grade is pending", async () => {
  const inputs = KINDS.proposed.collect(TASK, {
    base: "http://h",
    streams: {
      record: [{ type: "action", action: "click" }],
      log: [],
      changes: [],
      clipboard: [{ seq: 4, text: "SO-1", url: "http://h/x" }],
    },
    trace: [],
    answer: null,
    seen: [],
    blocked: [],
    final: { url: "http://h/x", urls: ["http://h/x"], logged_in: true, start_logged_in: true },
    rules: {},
  });
  assert.deepEqual([inputs.kind, inputs.task.task_id, inputs.clip, inputs.record.length], ["proposed", "prop_1", [
    "SO-1",
  ], 1]);
  assert.deepEqual(PROPOSED_PENDING, { ok: false, detail: "pending: judge.ts decides" });
  assert.deepEqual(await KINDS.proposed.grade(inputs, {}), PROPOSED_PENDING);
});
