import assert from "node:assert/strict";
import { TaskFormatError, UsageError } from "../errors/mod.ts";
import type { RunTask } from "./kinds.ts";
import { checkTaskSites, filterTasks, loadTasks, parseTaskLines, TASK_LIMITS } from "./load.ts";
import type { Task } from "../protocol/mod.ts";

const TASK = {
  task_id: "shop_checkout_express",
  site: "shop",
  macro: "submit_form",
  instruction: "Buy one 'Aurora Desk Lamp' with express shipping, delivered on 2026-03-18.",
  option: { product: "Aurora Desk Lamp", shipping: "express", date: "2026-03-18" },
  start: { url: "/shop/products/7", setup: [{ click: { selector: "#add-to-cart" } }], prefix: null },
  check: {
    all: [
      { change: { site: "shop", table: "orders", op: "insert", after: { shipping: "express" } } },
      { only_writes: [{ table: "orders" }, { table: "order_items" }, { table: "cart_items" }] },
    ],
  },
  verifier: null,
  solution: [{ navigate: { url: "/shop/cart" } }, { click: { selector: "#checkout" } }],
};

const line = (o: unknown) => JSON.stringify(o);
const withTask = (patch: Record<string, unknown>) => line({ ...TASK, ...patch });

function rejects(text: string, message: string, lineNo: number): void {
  assert.throws(
    () => parseTaskLines(text, "fixtures/tasks.jsonl"),
    (e: unknown) => {
      assert.ok(e instanceof TaskFormatError);
      assert.equal(e.message, message);
      assert.equal(e.file, "fixtures/tasks.jsonl");
      assert.equal(e.line, lineNo);
      return true;
    },
  );
}

Deno.test("parseTaskLines() parses the documented example, blank lines allowed", () => {
  // Datagen lines only: every task is a Task (a proposed line has a kind).
  const tasks = parseTaskLines(
    `\n${line(TASK)}\n\n${withTask({ task_id: "b", verifier: { answer: 3 } })}\n`,
    "t.jsonl",
  ) as Task[];
  assert.equal(tasks.length, 2);
  assert.equal(tasks[0].macro, "submit_form");
  assert.deepEqual(tasks[0].start, {
    url: "/shop/products/7",
    setup: [{ name: "click", params: { selector: "#add-to-cart" } }],
    prefix: null,
    logged_out: false,
  });
  assert.deepEqual(tasks[0].solution[0], { name: "navigate", params: { url: "/shop/cart", new_tab: false } });
  assert.deepEqual(tasks[1].verifier, { answer: 3 });
  const bare = parseTaskLines(line({ ...TASK, option: undefined, verifier: undefined }), "t.jsonl")[0] as Task;
  assert.equal(bare.option, null);
  assert.equal(bare.verifier, null);
});

Deno.test("parseTaskLines() names file, line, task and field of a missing field", () => {
  const text = [line({ ...TASK, task_id: "a" }), "", line({ ...TASK, task_id: "shop_017", start: { setup: [] } })].join(
    "\n",
  );
  rejects(text, 'fixtures/tasks.jsonl line 3: task "shop_017": start.url: is missing', 3);
  const noId = line({ ...TASK, task_id: undefined });
  rejects(noId, "fixtures/tasks.jsonl line 1: task_id: is missing", 1);
});

Deno.test("parseTaskLines() rejects a macro outside the vocabulary", () => {
  rejects(
    withTask({ macro: "drag_n_drop" }),
    'fixtures/tasks.jsonl line 1: task "shop_checkout_express": macro: "drag_n_drop" is not a macro (did you mean "drag_and_drop"?)',
    1,
  );
  rejects(
    withTask({ start: { url: "/", prefix: { macro: "fly" } } }),
    'fixtures/tasks.jsonl line 1: task "shop_checkout_express": start.prefix.macro: "fly" is not a macro (see the macro table in docs/tasks.md)',
    1,
  );
});

Deno.test("parseTaskLines() rejects a line that is not JSON", () => {
  assert.throws(
    () => parseTaskLines(`${line(TASK)}\n{"task_id": "x",`, "fixtures/tasks.jsonl"),
    (e: unknown) =>
      e instanceof TaskFormatError && e.line === 2 && /^fixtures\/tasks\.jsonl line 2: not JSON: /.test(e.message),
  );
});

Deno.test("parseTaskLines() rejects a duplicate task id", () => {
  rejects(
    `${line(TASK)}\n${line(TASK)}`,
    'fixtures/tasks.jsonl line 2: task "shop_checkout_express": duplicate task_id (first on line 1)',
    2,
  );
});

Deno.test("parseTaskLines() reports malformed checks, actions and unknown fields by path", () => {
  const id = 'fixtures/tasks.jsonl line 1: task "shop_checkout_express": ';
  rejects(
    withTask({ check: { all: [{ change: { table: "orders", op: "upsert" } }] } }),
    id + 'check.all[0].change.op: must be one of "insert", "update", "delete", got "upsert"',
    1,
  );
  rejects(withTask({ solution: [{ click: { index: -2 } }] }), id + "solution[0].click.index: must be >= 0, got -2", 1);
  rejects(
    withTask({ start: { url: "/", setup: [{ tap: {} }] } }),
    id +
      `start.setup[0]: expected an action (one of navigate, click, hover, input, send_keys, select_dropdown, dropdown_options, scroll, go_back, switch, close, upload_file, wait, drag, clipboard_read, clipboard_write, done, macro_done), got "tap"`,
    1,
  );
  rejects(withTask({ instrution: "typo" }), id + "instrution: is not a known field", 1);
  rejects(
    withTask({ verifier: { answer: { regex: "^a", flags: "g" } } }),
    id + 'verifier.answer.flags: only i, m, s, u are allowed, got "g"',
    1,
  );
  rejects(
    withTask({ task_id: "shop 17" }),
    'fixtures/tasks.jsonl line 1: task "shop 17": task_id: "shop 17" holds " " (a task id names its episode\'s folder: ' +
      'letters, digits, "_", "." and "-", no leading dot, no "..", at most 128 characters)',
    1,
  );
  rejects("[1, 2]", "fixtures/tasks.jsonl line 1: expected an object, got a list", 1);
});

Deno.test("parseTaskLines() reads datagen and proposed lines from one file; any other kind is an error", () => {
  const proposed = {
    kind: "proposed",
    task_id: "p1",
    site: "shop",
    macro: "search",
    instruction: "Find lamps.",
    start_path: "/shop/",
  };
  const tasks = parseTaskLines(`${line(TASK)}\n${line(proposed)}`, "t.jsonl");
  assert.deepEqual(tasks.map((t) => [t.task_id, "kind" in t ? t.kind : "datagen"]), [
    ["shop_checkout_express", "datagen"],
    ["p1", "proposed"],
  ]);
  rejects(
    withTask({ kind: "propsed" }),
    'fixtures/tasks.jsonl line 1: task "shop_checkout_express": kind: must be "proposed" (a datagen task has none), ' +
      'got "propsed"',
    1,
  );
});

Deno.test("loadTasks() reads a file and names an unreadable one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/tasks.jsonl`;
    await Deno.writeTextFile(path, `${line(TASK)}\r\n${withTask({ task_id: "two" })}\r\n`);
    assert.deepEqual((await loadTasks(path)).map((t) => t.task_id), ["shop_checkout_express", "two"]);
    await assert.rejects(() => loadTasks(`${dir}/missing.jsonl`), (e: unknown) => {
      return e instanceof TaskFormatError && e.message.startsWith(`cannot read task file "${dir}/missing.jsonl": `);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("filterTasks() keeps file order, applies ids then limit, and rejects unknown ids", () => {
  const tasks = ["a", "b", "c", "d"].map((task_id) => ({ task_id }));
  assert.deepEqual(filterTasks(tasks, {}).map((t) => t.task_id), ["a", "b", "c", "d"]);
  assert.deepEqual(filterTasks(tasks, { taskIds: ["d", "b"] }).map((t) => t.task_id), ["b", "d"]);
  assert.deepEqual(filterTasks(tasks, { taskIds: new Set(["d", "b", "c"]), limit: 2 }).map((t) => t.task_id), [
    "b",
    "c",
  ]);
  assert.deepEqual(filterTasks(tasks, { limit: 0 }).length, 4);
  assert.throws(
    () => filterTasks(tasks, { taskIds: ["a", "shop_01"] }),
    (e: unknown) => e instanceof UsageError && e.message === '--task-ids: no task with id "shop_01"',
  );
});

Deno.test("filterTasks() keeps a generated set's instances of the splits asked for, then ids and limit", () => {
  const tasks = [{ task_id: "a", split: "train" }, { task_id: "b", split: "test" }, { task_id: "c" }, {
    task_id: "d",
    split: "test",
  }];
  assert.deepEqual(filterTasks(tasks, { split: ["test"] }).map((t) => t.task_id), ["b", "d"]);
  assert.deepEqual(filterTasks(tasks, { split: ["val", "train"] }).map((t) => t.task_id), ["a"]);
  assert.deepEqual(filterTasks(tasks, { split: ["test"], limit: 1 }).map((t) => t.task_id), ["b"]);
  assert.throws(() => filterTasks(tasks, { split: ["val"] }), /--split val: none is in it/);
  assert.throws(() => filterTasks([{ task_id: "x" }], { split: ["test"] }), /--split test: no task has a split/);
});

Deno.test("parseTaskLines() refuses a file without tasks: empty, or blank lines only", () => {
  for (const [text, what] of [["", "it is empty"], ["\n  \n\r\n", "it holds only blank lines"]]) {
    assert.throws(() => parseTaskLines(text, "t.jsonl"), (e: unknown) => {
      assert.ok(e instanceof TaskFormatError);
      assert.equal(e.message, `t.jsonl has no tasks (${what}): expected one JSON task per line`);
      return true;
    });
  }
});

Deno.test("parseTaskLines() checks task ids: one plain folder name, no leading dot, no '..', 128 at most", () => {
  const rule = `(a task id names its episode's folder: letters, digits, "_", "." and "-", no leading dot, no "..", ` +
    "at most 128 characters)";
  for (
    const [id, why] of [
      ["..", "starts with a dot"],
      [".hidden", "starts with a dot"],
      ["a..b", 'holds ".."'],
      ["../../etc", 'holds "/"'],
      ["a\\b", 'holds "\\\\"'],
      ["a\tb", 'holds "\\t"'],
      ["x".repeat(129), "is 129 characters long"],
    ]
  ) {
    assert.throws(() => parseTaskLines(withTask({ task_id: id }), "t.jsonl"), (e: unknown) => {
      assert.ok(e instanceof TaskFormatError);
      const quoted = JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id);
      assert.equal(e.message, `t.jsonl line 1: task ${quoted}: task_id: ${quoted} ${why} ${rule}`);
      return true;
    });
  }
  assert.equal(parseTaskLines(withTask({ task_id: "x".repeat(128) }), "t.jsonl").length, 1);
});

Deno.test("parseTaskLines() takes a start URL on the site or a recording server, never another host", () => {
  const start = (url: string) => withTask({ start: { url } });
  for (const url of ["/shop/", "http://127.0.0.1:40115/shop/", "http://localhost:8318/mail?x=1"]) {
    assert.equal(parseTaskLines(start(url), "t.jsonl").length, 1, url);
  }
  for (
    const [url, why] of [
      ["https://example.com/shop/", "is outside the sandbox"],
      ["//example.com/shop/", "names another host, outside the sandbox"],
      ["/\\example.com/shop/", "names another host, outside the sandbox"],
      ["http://127.0.0.1.example.com:80/", "is outside the sandbox"],
      ["javascript:alert(1)", "is outside the sandbox"],
      ["shop/", 'is not a path starting with "/"'],
    ]
  ) {
    assert.throws(
      () => parseTaskLines(start(url), "t.jsonl"),
      (e: unknown) => e instanceof TaskFormatError && e.message.includes(`start.url: ${JSON.stringify(url)} ${why}: `),
      url,
    );
  }
});

Deno.test("loadTasks() reports a byte order mark and bytes that are not UTF-8, with the line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-load-" });
  try {
    const path = `${dir}/tasks.jsonl`;
    await Deno.writeFile(path, new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(line(TASK))]));
    await assert.rejects(loadTasks(path), (e: unknown) => {
      assert.ok(e instanceof TaskFormatError);
      assert.equal(e.message, `${path} starts with a UTF-8 byte order mark; save it without one`);
      return true;
    });
    const latin1 = new TextEncoder().encode(`${line(TASK)}\n${withTask({ task_id: "two", instruction: "caf_" })}\n`);
    latin1[latin1.lastIndexOf(0x5f)] = 0xe9;
    await Deno.writeFile(path, latin1);
    await assert.rejects(loadTasks(path), (e: unknown) => {
      assert.ok(e instanceof TaskFormatError);
      assert.match(e.message, new RegExp(`^${path} is not UTF-8: byte 0xe9 at byte offset \\d+ \\(line 2\\)`));
      assert.equal(e.line, 2);
      return true;
    });
    await assert.rejects(loadTasks(dir), /cannot read task file ".*": it is a folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("filterTasks() names --task-ids when the ids name nothing, and refuses an empty selection", () => {
  const tasks = [{ task_id: "a" }];
  assert.throws(() => filterTasks(tasks, { taskIds: [] }), /^UsageError: --task-ids names no task id$/);
  assert.throws(() => filterTasks([], {}), /^InputError: the selection leaves no task to run$/);
});

Deno.test("checkTaskSites() names the file, line and task of a site the server does not serve", () => {
  const tasks = parseTaskLines(`${line(TASK)}\n\n${withTask({ task_id: "b", site: "bank" })}`, "t.jsonl");
  checkTaskSites(tasks.slice(0, 1), ["shop", "mail"]);
  assert.throws(() => checkTaskSites(tasks, ["shop", "mail"]), (e: unknown) => {
    assert.ok(e instanceof TaskFormatError);
    assert.equal(e.message, 't.jsonl line 3: task "b": site: "bank" is not an app of the sandbox (shop, mail)');
    assert.deepEqual([e.file, e.line], ["t.jsonl", 3]);
    return true;
  });
  assert.throws(
    () => checkTaskSites(tasks, ["lab"], "http://127.0.0.1:9"),
    /^TaskFormatError: t\.jsonl line 1: task "shop_checkout_express": site: "shop" is not an app of the site server at http:\/\/127\.0\.0\.1:9 \(lab\)$/,
  );
  const human = { kind: "human", task_id: "h", dir: "ann/mail/h", site: "mail", sites: ["mail", "bank"] };
  assert.throws(
    () => checkTaskSites([human as unknown as RunTask], ["shop", "mail"]),
    /^TaskFormatError: ann\/mail\/h\/task\.json: sites: "bank" is not an app of the sandbox \(shop, mail\)$/,
  );
});

Deno.test("parseTaskLines() names a line that is not a task object, and refuses a line past its limit", () => {
  // `null` once crashed the loader with a TypeError that named no line.
  for (const raw of ["null", "3", '"a task"', "[]"]) {
    assert.throws(
      () => parseTaskLines(`${JSON.stringify(TASK)}\n${raw}\n`, "tasks.jsonl"),
      (e: unknown) => e instanceof TaskFormatError && e.line === 2 && /^tasks\.jsonl line 2: /.test(e.message),
      raw,
    );
  }
  const huge = JSON.stringify({ ...TASK, instruction: "x".repeat(TASK_LIMITS.line) });
  assert.throws(
    () => parseTaskLines(`${JSON.stringify(TASK)}\n${huge}\n`, "tasks.jsonl"),
    new RegExp(`tasks\\.jsonl line 2: is ${huge.length} bytes long, more than the ${TASK_LIMITS.line} a line may hold`),
  );
});
