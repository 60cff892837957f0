/** Loading human tasks: the bundled annotations, the split and macro filters, and errors that name file and field. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TaskFormatError, UsageError } from "../errors/mod.ts";
import { loadHumanTasks, loadSiteSplit } from "./human_load.ts";

const ANNOTATIONS = fileURLToPath(new URL("../../fixtures/annotations", import.meta.url));

Deno.test("loadHumanTasks() bundles 20+ tasks: multi-macro, cross-site, behind the login, reasoning", async () => {
  const all = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all" });
  assert.ok(all.length >= 20, `${all.length} tasks`);
  assert.ok(all.filter((t) => t.macros.length > 1).length >= 15, "most tasks chain several macros");
  assert.ok(all.filter((t) => t.sites.length > 1).length >= 2, "cross-site tasks");
  assert.ok(all.filter((t) => t.needs_login).length >= 2, "tasks behind the login");
  assert.ok(all.filter((t) => t.macros.includes("answer_question")).length >= 8, "reasoning tasks");
  for (const t of all) {
    assert.ok(t.recording, `${t.key} has a recording`);
    assert.equal(t.macro, t.macros[t.macros.length - 1]);
    assert.ok(t.subtasks, `${t.key} has gold subtasks`);
    assert.equal(t.key, `${t.dir.split("/").slice(-2).join("/")}`);
  }
  assert.deepEqual(all.map((t) => t.key), [...all.map((t) => t.key)].sort(), "sorted by key");
});

Deno.test("loadHumanTasks() split: test holds any task touching a held-out site, train the rest", async () => {
  const split = await loadSiteSplit(join(ANNOTATIONS, "site_split.json"));
  assert.ok(split.test.length >= 1 && split.train.length >= 1);
  const all = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all" });
  const test = await loadHumanTasks({ annotationsDir: ANNOTATIONS });
  const train = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "train" });
  assert.equal(test.length + train.length, all.length, "every task is in exactly one split");
  for (const t of test) assert.ok(t.sites.some((s) => split.test.includes(s)), `${t.key} touches a test site`);
  for (const t of train) assert.ok(t.sites.every((s) => split.train.includes(s)), `${t.key} only train sites`);
  const ids = (ts: { task_id: string }[]) => ts.map((t) => t.task_id);
  // A cross-site task whose main site is a train site is still held out when another of its sites is.
  assert.ok(ids(test).includes("cross_h_api20_assignee_email"));
  assert.ok(!ids(train).includes("cross_h_api20_assignee_email"));
  assert.ok(ids(train).includes("shop_h_checkout_ssd"));
  const onSites = await loadHumanTasks({ annotationsDir: ANNOTATIONS, sites: ["tracker"] });
  assert.ok(onSites.every((t) => t.sites.includes("tracker")) && onSites.length >= 7);
});

Deno.test("loadHumanTasks() macros: any of the macros, by name or numbered label", async () => {
  const drag = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all", macros: ["drag_and_drop"] });
  assert.deepEqual(drag.map((t) => t.task_id), ["tracker_h_board_mob10_done"]);
  const login = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all", macros: ["authenticate_by_form"] });
  assert.ok(login.length >= 2 && login.every((t) => t.needs_login));
  // The drag task is a train task: not in the default test split, and a selection of nothing is an error.
  await assert.rejects(
    loadHumanTasks({ annotationsDir: ANNOTATIONS, macros: ["drag_and_drop"] }),
    (e: unknown) =>
      e instanceof UsageError &&
      e.message === '--human-macros "drag_and_drop": no task of --human-split "test" has one of these macros',
  );
  const dir = await scratch({ macros: ["search", "submit_form", "submit_form#2"] });
  try {
    const numbered = await loadHumanTasks({ annotationsDir: dir, split: "all", macros: ["submit_form"] });
    assert.equal(numbered.length, 1);
    const exact = await loadHumanTasks({ annotationsDir: dir, split: "all", macros: ["submit_form#2"] });
    assert.equal(exact.length, 1);
    await assert.rejects(
      loadHumanTasks({ annotationsDir: dir, split: "all", macros: ["drag_and_drop"] }),
      /--human-macros "drag_and_drop": no human task in .* has one of these macros/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const VERIFIER = { macros: { search: { check: { visited: { regex: "^/shop/products\\?q=" } } } } };

/** A one-task annotations folder (shop/t1) with the given task.json fields, verifier and extra files. */
async function scratch(
  task: Record<string, unknown> = {},
  verifier: unknown = VERIFIER,
  files: Record<string, string> = {},
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "webmix-annotations-" });
  await Deno.mkdir(join(dir, "shop", "t1"), { recursive: true });
  await Deno.writeTextFile(join(dir, "site_split.json"), JSON.stringify({ train: ["shop"], test: ["mail"] }));
  const base = { site: "shop", instruction: "Search for lamps.", macros: ["search"], starting_url: "/shop/" };
  await Deno.writeTextFile(join(dir, "shop", "t1", "task.json"), JSON.stringify({ ...base, ...task }));
  await Deno.writeTextFile(join(dir, "shop", "t1", "verifier.json"), JSON.stringify(verifier));
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(join(dir, name), text);
  return dir;
}

async function loadError(dir: string): Promise<TaskFormatError> {
  try {
    await loadHumanTasks({ annotationsDir: dir, split: "all" });
  } catch (err) {
    assert.ok(err instanceof TaskFormatError, String(err));
    return err;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  throw new Error("loadHumanTasks() accepted a malformed annotation");
}

Deno.test("loadHumanTasks() errors name the file and the field", async () => {
  let e = await loadError(await scratch({ macros: ["serch"] }));
  assert.match(e.message, /shop\/t1\/task\.json: macros\[0\]: "serch" is not a macro \(did you mean "search"\?\)/);
  assert.match(e.file ?? "", /task\.json$/);
  e = await loadError(await scratch({ instrution: "typo" }));
  assert.match(e.message, /task\.json: instrution: is not a known field/);
  e = await loadError(await scratch({ task_id: "other" }));
  assert.match(e.message, /task\.json: task_id: "other" differs from its folder "t1"/);
  e = await loadError(await scratch({ macro_subtasks: { submit_form: "x" } }));
  assert.match(e.message, /task\.json: macro_subtasks\.submit_form: is not one of "macros"/);
  e = await loadError(await scratch({}, { macros: { search: { check: { change: { table: "orders" } } } } }));
  assert.match(e.message, /verifier\.json: macros\.search\.check\.change: is not available in a human verifier/);
  e = await loadError(await scratch({}, { macros: { search: { check: { record: { value: { regex: "(" } } } } } }));
  assert.match(e.message, /verifier\.json: macros\.search\.check\.record\.value\.regex: is not a valid regular/);
  e = await loadError(await scratch({}, { macros: { search: { answer: { expected: "x", date: "soon" } } } }));
  assert.match(e.message, /verifier\.json: macros\.search\.answer\.date: is not a date/);
  e = await loadError(await scratch({}, { macros: { submit_form: { check: { visited: "/x" } } } }));
  assert.match(e.message, /verifier\.json: macros\.submit_form: is not one of task\.json's macros \(search\)/);
  e = await loadError(await scratch({}, { macros: { search: {} } }));
  assert.match(e.message, /verifier\.json: macros\.search: needs a "check", an "answer" or both/);
  e = await loadError(await scratch({}, VERIFIER, { "shop/t1/recording.json": '{"entries": []}' }));
  assert.match(e.message, /recording\.json: start_url: is missing/);
  e = await loadError(await scratch({}, VERIFIER, { "shop/t1/recording.json": "{nope" }));
  assert.match(e.message, /recording\.json: not JSON/);
  e = await loadError(await scratch({}, VERIFIER, { "site_split.json": '{"train": ["shop"], "test": ["shop"]}' }));
  assert.match(e.message, /site_split\.json: test: "shop" is also a train site/);
});

Deno.test("loadHumanTasks() rejects a task folder without verifier.json or task.json, and a task id used twice", async () => {
  const dir = await scratch();
  try {
    await Deno.mkdir(join(dir, "shop", "draft"));
    await Deno.writeTextFile(join(dir, "shop", "draft", "task.json"), "{}");
    await assert.rejects(
      loadHumanTasks({ annotationsDir: dir, split: "all" }),
      (e: unknown) =>
        e instanceof TaskFormatError && e.file === join(dir, "shop", "draft", "verifier.json") &&
        /shop\/draft: has task\.json but no verifier\.json/.test(e.message),
    );
    await Deno.remove(join(dir, "shop", "draft", "task.json"));
    await assert.rejects(loadHumanTasks({ annotationsDir: dir, split: "all" }), /shop\/draft: has no task\.json/);
    await Deno.remove(join(dir, "shop", "draft"));
    // A hidden folder is not a task (an editor's or a version control's).
    await Deno.mkdir(join(dir, "shop", ".drafts"));
    assert.equal((await loadHumanTasks({ annotationsDir: dir, split: "all" })).length, 1);
    await Deno.mkdir(join(dir, "mail", "t1"), { recursive: true });
    await Deno.copyFile(join(dir, "shop", "t1", "task.json"), join(dir, "mail", "t1", "task.json"));
    await Deno.copyFile(join(dir, "shop", "t1", "verifier.json"), join(dir, "mail", "t1", "verifier.json"));
    await assert.rejects(loadHumanTasks({ annotationsDir: dir, split: "all" }), /task id "t1" is also mail\/t1/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadHumanTasks() resolves gold subtasks (span order, reasoning last) and the start hint", async () => {
  const dir = await scratch(
    {
      macros: ["answer_question", "search", "open_detail"],
      macro_subtasks: { answer_question: "Report the price", search: "Search lamps", open_detail: "Open the lamp" },
      macro_spans: { answer_question: [0, 1], search: [2, 3], open_detail: [4, 6] },
      agent_start_url: "/shop/products",
    },
    { macros: { search: VERIFIER.macros.search } },
    {
      "shop/t1/recording.json": JSON.stringify({ start_url: "http://127.0.0.1:9/shop/", entries: [] }),
    },
  );
  try {
    const [t] = await loadHumanTasks({ annotationsDir: dir, split: "all" });
    assert.deepEqual(t.subtasks?.map((s) => [s.family, s.macro]), [
      ["Text entry", "search"],
      ["Navigation", "open_detail"],
      ["Reasoning base", "answer_question"],
    ]);
    assert.equal(t.start_hint, "/shop/products", "agent_start_url wins over the recording");
    assert.equal(t.needs_login, false);
    assert.equal(t.macro, "open_detail");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const partial = await scratch({ macros: ["search", "open_detail"], macro_subtasks: { search: "Search lamps" } });
  try {
    const [t] = await loadHumanTasks({ annotationsDir: partial, split: "all" });
    assert.equal(t.subtasks, null, "null unless every macro has its text");
    assert.equal(t.start_hint, "/shop/", "starting_url without a recording");
  } finally {
    await Deno.remove(partial, { recursive: true });
  }
});

Deno.test("loadHumanTasks() checks ids, start pages and encodings of task.json, verifier.json and recording.json", async () => {
  let e = await loadError(await scratch({ task_id: ".." }));
  assert.match(e.message, /shop\/t1\/task\.json: task_id: "\.\." starts with a dot \(a task id names its episode's/);
  e = await loadError(await scratch({ starting_url: "https://example.com/shop/" }));
  assert.match(
    e.message,
    /task\.json: starting_url: "https:\/\/example\.com\/shop\/" is outside the sandbox: give a path/,
  );
  e = await loadError(await scratch({ agent_start_url: "//example.com/" }));
  assert.match(e.message, /task\.json: agent_start_url: "\/\/example\.com\/" names another host/);
  const recording = JSON.stringify({ start_url: "https://mail.example.com/inbox", entries: [] });
  e = await loadError(await scratch({}, VERIFIER, { "shop/t1/recording.json": recording }));
  assert.match(e.message, /recording\.json: start_url: "https:\/\/mail\.example\.com\/inbox" is outside the sandbox/);
  e = await loadError(await scratch({}, VERIFIER, { "shop/t1/verifier.json": `\uFEFF${JSON.stringify(VERIFIER)}` }));
  assert.match(e.message, /shop\/t1\/verifier\.json starts with a UTF-8 byte order mark; save it without one$/);
  const dir = await scratch();
  await Deno.writeFile(join(dir, "shop", "t1", "task.json"), new Uint8Array([0x7b, 0x0a, 0x22, 0xe9, 0x22]));
  e = await loadError(dir);
  assert.match(e.message, /shop\/t1\/task\.json is not UTF-8: byte 0xe9 at byte offset 3 \(line 2\)/);
  assert.equal(e.line, 2);
  const spaced = await scratch();
  await Deno.rename(join(spaced, "shop", "t1"), join(spaced, "shop", "t 1"));
  e = await loadError(spaced);
  assert.match(e.message, /shop\/t 1: the folder name is not a task id: "t 1" holds " "/);
});

Deno.test("loadHumanTasks() refuses a selection of nothing: a typo in macros, a split without tasks", async () => {
  const dir = await scratch();
  try {
    const rejects = (options: Partial<Parameters<typeof loadHumanTasks>[0]>, message: string) =>
      assert.rejects(
        loadHumanTasks({ annotationsDir: dir, ...options }),
        (e: unknown) => e instanceof UsageError && e.message === message,
      );
    await rejects(
      { split: "all", macros: ["serch"] },
      '--human-macros: "serch" is not a macro (did you mean "search"?)',
    );
    await rejects({ split: "all", macros: [] }, "--human-macros names no macro");
    // shop is a train site: the test split has no task.
    await rejects({ split: "test" }, `--human-split "test": no human task in ${dir} is on its sites`);
    await rejects({ sites: ["bank"] }, `no human task in ${dir} is on one of the sites "bank"`);
    await Deno.remove(join(dir, "shop"), { recursive: true });
    await assert.rejects(
      loadHumanTasks({ annotationsDir: dir, split: "all" }),
      (e: unknown) => e instanceof TaskFormatError && e.message.startsWith(`${dir} has no human tasks`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
