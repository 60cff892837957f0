/** Loading human tasks: the bundled annotations, the split and macro filters, and errors that name file and field. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TaskFormatError, UsageError } from "../errors/mod.ts";
import { familyOf, loadSiteSplit } from "../protocol/mod.ts";
import { loadHumanTasks } from "./human_load.ts";
import type { HumanTask } from "./human_task.ts";

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

/** The bundled tasks whose main site is a test site (mail, bookings), by key. */
const TEST_SPLIT = [
  "bookings/bookings_h_birch_hiring_panel",
  "bookings/bookings_h_cancel_retrospective",
  "bookings/bookings_h_delta_seats",
  "bookings/bookings_h_kestrel_rules",
  "bookings/bookings_h_video_fjord_schedule",
  "bookings/cross_h_sprint14_planning_room",
  "mail/mail_h_add_contact_lena",
  "mail/mail_h_login_hotel_checkin",
  "mail/mail_h_login_page_size",
  "mail/mail_h_ontime_points",
  "mail/mail_h_q2_meeting_bring",
  "mail/mail_h_reply_walkthrough",
];

Deno.test("loadHumanTasks() split (the seed's rule): test by the main site, train when no site is a test site", async () => {
  const split = await loadSiteSplit(join(ANNOTATIONS, "site_split.json"));
  assert.ok(split.test.length >= 1 && split.train.length >= 1);
  const all = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all" });
  const test = await loadHumanTasks({ annotationsDir: ANNOTATIONS });
  const train = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "train" });
  const keys = (ts: { key: string }[]) => ts.map((t) => t.key);
  assert.deepEqual(keys(test), TEST_SPLIT);
  for (const t of test) assert.ok(split.test.includes(t.site), `${t.key}: its main site is a test site`);
  for (const t of train) assert.ok(t.sites.every((s) => split.train.includes(s)), `${t.key} only train sites`);
  // A cross-site task on a test site with a train site is a test task (its main site decides) ...
  assert.deepEqual(keys(test).filter((k) => k.includes("/cross_")), ["bookings/cross_h_sprint14_planning_room"]);
  // ... and one on a train site that touches a test site is in neither split, only in "all".
  const inTestOrTrain = new Set([...keys(test), ...keys(train)]);
  const neither = all.filter((t) => !inTestOrTrain.has(t.key));
  assert.deepEqual(keys(neither), ["shop/cross_h_order_total_to_sofia", "tracker/cross_h_api20_assignee_email"]);
  assert.equal(all.length, 26, "all: every bundled task");
  assert.ok(keys(train).includes("shop/shop_h_checkout_ssd"));
  const onSites = await loadHumanTasks({ annotationsDir: ANNOTATIONS, sites: ["tracker"] });
  assert.ok(onSites.every((t) => t.sites.includes("tracker")) && onSites.length >= 7);
});

Deno.test("loadHumanTasks() split: a cross-site task follows its main site into test, or falls in neither split", async () => {
  const onTrain = await scratch({ site: "shop", sites: ["shop", "mail"] });
  try {
    assert.equal((await loadHumanTasks({ annotationsDir: onTrain, split: "all" })).length, 1);
    for (const split of ["test", "train"] as const) {
      await assert.rejects(
        loadHumanTasks({ annotationsDir: onTrain, split }),
        (e: unknown) => e instanceof UsageError && e.message.startsWith(`--human-split "${split}": no human task`),
      );
    }
  } finally {
    await Deno.remove(onTrain, { recursive: true });
  }
  const onTest = await scratch({ site: "mail", sites: ["mail", "shop"] });
  try {
    assert.equal((await loadHumanTasks({ annotationsDir: onTest, split: "test" })).length, 1);
    assert.equal((await loadHumanTasks({ annotationsDir: onTest, split: "all" })).length, 1);
    await assert.rejects(loadHumanTasks({ annotationsDir: onTest, split: "train" }), UsageError);
  } finally {
    await Deno.remove(onTest, { recursive: true });
  }
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

/** The error of a strict load (an author's check: every leniency of the seed's format refused). */
async function loadError(dir: string): Promise<TaskFormatError> {
  try {
    await loadHumanTasks({ annotationsDir: dir, split: "all", strict: true });
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
      loadHumanTasks({ annotationsDir: dir, split: "all", strict: true }),
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

const SEED_ANNOTATIONS = fileURLToPath(new URL("./testdata/seed_annotations", import.meta.url));

/** A task without its folder, to compare a task loaded from two annotation folders. */
const withoutDir = (t: HumanTask): Omit<HumanTask, "dir"> => {
  const { dir: _, ...rest } = t;
  return rest;
};

Deno.test("loadHumanTasks() reads seed-format task.json (Python literals, {id} sites) as the strict format", async () => {
  const seed = await loadHumanTasks({ annotationsDir: SEED_ANNOTATIONS, split: "all" });
  const bundled = await loadHumanTasks({ annotationsDir: ANNOTATIONS, split: "all" });
  for (const key of ["shop/cross_h_order_total_to_sofia", "mail/mail_h_login_hotel_checkin"]) {
    const a = seed.find((t) => t.key === key);
    const b = bundled.find((t) => t.key === key);
    assert.ok(a && b, key);
    assert.deepEqual(withoutDir(a), withoutDir(b), key);
  }
  const cross = seed.find((t) => t.key === "shop/cross_h_order_total_to_sofia")!;
  assert.deepEqual(cross.sites, ["shop", "mail"], "a Python-literal list of {id} dicts");
  const mail = seed.find((t) => t.key === "mail/mail_h_login_hotel_checkin")!;
  assert.deepEqual(mail.sites, ["mail"], "a JSON list of {id} objects");
  assert.equal(mail.start_hint, mail.recording?.start_url, "an empty agent_start_url falls through to the recording");
  assert.ok(mail.needs_login);
  // The seed's split, on the seed-format folder: the shop task touches mail, a test site, so it is in no split.
  const test = await loadHumanTasks({ annotationsDir: SEED_ANNOTATIONS, split: "test" });
  assert.deepEqual(test.map((t) => t.key), [
    "bookings/cross_h_sprint14_planning_room",
    "mail/mail_h_login_hotel_checkin",
  ]);
  await assert.rejects(loadHumanTasks({ annotationsDir: SEED_ANNOTATIONS, split: "train" }), UsageError);
});

Deno.test("loadHumanTasks() reads a seed-format task with numbered macros as its strict twin", async () => {
  const key = "bookings/cross_h_sprint14_planning_room";
  const seed = (await loadHumanTasks({ annotationsDir: SEED_ANNOTATIONS, split: "all" })).find((t) => t.key === key)!;
  const dir = await Deno.makeTempDir({ prefix: "webmix-annotations-" });
  try {
    await Deno.mkdir(join(dir, key), { recursive: true });
    await Deno.copyFile(join(SEED_ANNOTATIONS, "site_split.json"), join(dir, "site_split.json"));
    for (const f of ["verifier.json", "recording.json"]) {
      await Deno.copyFile(join(SEED_ANNOTATIONS, key, f), join(dir, key, f));
    }
    const macros = ["navigate_menu", "navigate_menu#2", "pick_date", "submit_form"];
    const strict = {
      task_id: "cross_h_sprint14_planning_room",
      site: "bookings",
      sites: ["bookings", "tracker"],
      instruction: seed.instruction,
      macros,
      macro_subtasks: Object.fromEntries(seed.subtasks!.map((s) => [s.macro, s.text])),
      macro_spans: { navigate_menu: [1, 2], "navigate_menu#2": [3, 4], pick_date: [7, 9], submit_form: [10, 14] },
    };
    await Deno.writeTextFile(join(dir, key, "task.json"), JSON.stringify(strict));
    const [twin] = await loadHumanTasks({ annotationsDir: dir, split: "all" });
    assert.deepEqual(withoutDir(seed), withoutDir(twin));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.deepEqual(seed.macros, ["navigate_menu", "navigate_menu#2", "pick_date", "submit_form"]);
  assert.equal(seed.macro, "submit_form");
  assert.deepEqual(seed.subtasks?.map((s) => [s.family, s.macro, s.text]), [
    ["Navigation", "navigate_menu", "Open the Tracker from the portal"],
    ["Navigation", "navigate_menu#2", "Open the Tracker's sprint list"],
    ["Discrete selection", "pick_date", "Pick 23 March 2026"],
    ["Form transaction", "submit_form", "Book Birch at 10:00 for 1 hour"],
  ]);
  assert.deepEqual(Object.keys(seed.verifier.macros).sort(), [...seed.macros].sort());
  assert.equal(seed.start_hint, seed.recording?.start_url, "a null agent_start_url: the recording's first page");
});

Deno.test("loadHumanTasks() loads the seed's leniencies with one warning each; strict refuses them", async () => {
  // An extra task.json key, a macro outside the vocabulary (in task.json and verifier.json), a folder lacking
  // verifier.json: the seed ignores the key, files the macro under "Other" and skips the folder.
  const dir = await scratch({ annotator: "kim", review: 2, macros: ["search", "hover_tooltip"] }, {
    macros: { hover_tooltip: { check: { visited: { contains: "/shop/" } } } },
  });
  try {
    await Deno.mkdir(join(dir, "shop", "draft"));
    await Deno.writeTextFile(join(dir, "shop", "draft", "task.json"), "{}");
    const warnings: string[] = [];
    const [t, ...rest] = await loadHumanTasks({ annotationsDir: dir, split: "all", warn: (w) => warnings.push(w) });
    assert.deepEqual(rest, [], "the folder without verifier.json is skipped");
    assert.deepEqual(t.macros, ["search", "hover_tooltip"]);
    assert.equal(familyOf("hover_tooltip"), "Other");
    assert.equal(warnings.length, 3, warnings.join("\n"));
    assert.match(warnings[0], /shop\/draft: skipped: task\.json but no verifier\.json/);
    assert.match(warnings[1], /shop\/t1\/task\.json: ignored unknown key\(s\) "annotator", "review" \(--strict/);
    assert.match(
      warnings[2],
      /shop\/t1\/task\.json: macro\(s\) "hover_tooltip" outside the vocabulary: family "Other"/,
    );
    await assert.rejects(loadHumanTasks({ annotationsDir: dir, split: "all", strict: true }), /no verifier\.json/);
    await Deno.remove(join(dir, "shop", "draft"), { recursive: true });
    await assert.rejects(
      loadHumanTasks({ annotationsDir: dir, split: "all", strict: true }),
      /"hover_tooltip" is not a macro .*\(and 1 more problem/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadHumanTasks() seed-format errors name the file and the field", async () => {
  let e = await loadError(await scratch({ macros: "['search'" }));
  assert.match(
    e.message,
    /shop\/t1\/task\.json: macros: is not a Python literal: unclosed list \(opened at offset 0\) at offset 9$/,
  );
  assert.match(e.file ?? "", /task\.json$/);
  e = await loadError(await scratch({ macro_subtasks: "{'search': 'Search lamps}" }));
  assert.match(e.message, /task\.json: macro_subtasks: is not a Python literal: unterminated string at offset 11$/);
  e = await loadError(await scratch({ sites: "[{'id': 'shop'}, {'name': 'mail'}]" }));
  assert.match(e.message, /task\.json: sites\[1\]: expected a site id or \{"id": site\}, got an object/);
  e = await loadError(await scratch({ sites: [{ id: "Shop!" }] }));
  assert.match(e.message, /task\.json: sites\[0\]\.id: must match/);
  e = await loadError(await scratch({ sites: "shop" }));
  assert.match(e.message, /task\.json: sites: expected a list, got "shop"/);
  e = await loadError(await scratch({ macros: "['search', 'serch#2']" }));
  assert.match(e.message, /task\.json: macros\[1\]: "serch" is not a macro \(did you mean "search"\?\)/);
  e = await loadError(await scratch({ macro_spans: "{'search': (0,)}" }));
  assert.match(e.message, /task\.json: macro_spans\.search: /);
  e = await loadError(await scratch({ macros: "['search'] + ['open_detail']" }));
  assert.match(e.message, /task\.json: macros: is not a Python literal: unexpected "\+" after the value at offset 11$/);
});

Deno.test("loadHumanTasks() start hint as the seed's `or`: an empty or null start URL is no start URL", async () => {
  const recording = JSON.stringify({ start_url: "http://127.0.0.1:9/shop/cart", entries: [] });
  const dir = await scratch({ agent_start_url: "", starting_url: null }, VERIFIER, {
    "shop/t1/recording.json": recording,
  });
  try {
    const [t] = await loadHumanTasks({ annotationsDir: dir, split: "all" });
    assert.equal(t.start_hint, "http://127.0.0.1:9/shop/cart");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const bare = await scratch({ agent_start_url: "", starting_url: "" });
  try {
    const [t] = await loadHumanTasks({ annotationsDir: bare, split: "all" });
    assert.equal(t.start_hint, null);
  } finally {
    await Deno.remove(bare, { recursive: true });
  }
});

Deno.test("loadHumanTasks() optional fields as the seed's `or`: null, an empty sites list and '[]' are not given", async () => {
  const cases: [Record<string, unknown>, string | null][] = [
    [{ sites: [], macro_subtasks: null, macro_spans: null }, null],
    [{ sites: "[]", macro_subtasks: "{}", macro_spans: "{}" }, null],
    [{ sites: null, macro_subtasks: { search: "Search lamps" }, macro_spans: "{'search': (0, 2)}" }, "Search lamps"],
  ];
  for (const [fields, text] of cases) {
    const dir = await scratch(fields);
    try {
      const [t] = await loadHumanTasks({ annotationsDir: dir, split: "all" });
      assert.deepEqual(t.sites, ["shop"], JSON.stringify(fields));
      assert.equal(t.subtasks?.[0].text ?? null, text, JSON.stringify(fields));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});
