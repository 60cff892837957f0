/**
 * Regrading throughput (target: >= 2,000 episodes/s on the 2-core machine). Grades a realistic episode: 200 request
 * log entries, 20 data changes, 40 action events, 60 recorder entries, 12 screens of seen text.
 *
 *   deno bench bench/grading_bench.ts      per-episode timings (Deno.bench)
 *   deno run bench/grading_bench.ts        median episodes/s over batches (what docs quote), and regradeRun over a copy
 *                                          of the 62-episode demo folder from disk (fixtures/run_folders/v1_demo)
 */
import { gate, type GateResult } from "../lib/grading/mod.ts";
import { type Check, type Evidence, parseEvidence, type Verifier } from "../lib/protocol/mod.ts";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { regradeRun } from "../lib/regrade/mod.ts";
import { readGradeInputs } from "../lib/run_folder/episode_files.ts";
import { gradeTask, parseGradeInputs, type Verdict } from "../lib/tasks/mod.ts";

const BASE = "http://127.0.0.1:40115";

function evidence(): Evidence {
  const log: Evidence["log"] = [];
  for (let i = 0; i < 198; i++) {
    const post = i % 5 === 4;
    log.push({
      seq: i,
      time: "2026-01-05T10:00:00Z",
      method: post ? "POST" : "GET",
      path: post ? `/shop/cart` : `/shop/products/${i % 40}`,
      query: i % 7 === 0 ? { page: String(i % 3), q: "lamp" } : {},
      body: post ? { product_id: String(i % 40), qty: String(1 + (i % 3)) } : null,
      status: post ? 303 : i % 50 === 0 ? 404 : 200,
    });
  }
  log.push({
    seq: 400,
    method: "POST",
    path: "/shop/cart",
    query: {},
    body: { product_id: "7", qty: "1" },
    status: 303,
  });
  log.push({ seq: 402, method: "POST", path: "/shop/checkout", query: {}, body: { shipping: "express" }, status: 303 });
  const changes: Evidence["changes"] = [];
  for (let i = 0; i < 19; i++) {
    changes.push({
      seq: 300 + i,
      site: "shop",
      table: "cart_items",
      op: i % 4 === 3 ? "delete" : "insert",
      key: i,
      before: null,
      after: { id: i, product_id: i % 40, qty: 1, created_at: "2026-01-05T10:00:00Z" },
    });
  }
  // The checkout: stock lowered as its side effect (bookkeeping), the order placed (an irreversible act) with a note
  // the app signs (a text addition the grader strips).
  changes.push({
    seq: 401,
    site: "shop",
    table: "products",
    op: "update",
    key: 7,
    before: { id: 7, stock: 12 },
    after: { id: 7, stock: 11 },
  });
  changes.push({
    seq: 401,
    site: "shop",
    table: "orders",
    op: "insert",
    key: 1042,
    before: null,
    after: {
      id: 1042,
      shipping: "express",
      delivery_date: "2026-03-18",
      total: 129.5,
      note: "Leave it at the door.\n-- \nAlex Morgan",
      created_at: "2026-01-05T10:22:31Z",
    },
  });
  const screen = (i: number) =>
    `Sandbox Shop  Products  Cart  Orders\nAurora Desk Lamp $${(29 + i).toFixed(2)}  In stock: ${i * 3}\n` +
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(20) +
    `Order ORD-${1031 + i} placed on January ${i + 1}, 2026. Total $1,${200 + i}.50`;
  return {
    base: BASE,
    log,
    changes,
    clip: ["ORD-1042"],
    events: Array.from(
      { length: 40 },
      (_, i) => ({ type: "action", action: i % 3 ? "click" : "type", target: "", value: `v${i}` }),
    ),
    record: Array.from(
      { length: 60 },
      (_, i) => ({ seq: i, type: "action", action: "click", target: `button#b${i} "Go"` }),
    ),
    answer: "ORD-1042",
    seen: Array.from({ length: 12 }, (_, i) => screen(i)),
    final: {
      url: `${BASE}/shop/orders/1042?msg=placed`,
      urls: [`${BASE}/shop/orders/1042?msg=placed`],
      logged_in: true,
      start_logged_in: true,
    },
    rules: {
      shop: {
        bookkeeping: { products: ["stock"] },
        generated: { orders: ["id", "created_at"], cart_items: ["id", "created_at"] },
        queryDefaults: { page: "1" },
        ignoredQuery: ["msg"],
        caselessQuery: ["q"],
        irreversible: [{ name: "place order", table: "orders", op: "insert" }],
        textAdditions: {
          "orders.note": [{
            name: "signature",
            suffix: String.raw`\s*\n-- \n{value}`,
            value: { table: "settings", key: 1, field: "signature", seed: "Alex Morgan" },
          }],
        },
      },
    },
  };
}

const TASK = {
  task_id: "shop_checkout_express",
  site: "shop",
  macro: "submit_form",
  instruction: "Buy one Aurora Desk Lamp with express shipping, delivered on 2026-03-18, and report the order id.",
  option: { product: "Aurora Desk Lamp", shipping: "express", date: "2026-03-18" },
  start: { url: "http://127.0.0.1:8318/shop/products/7" },
  check: {
    all: [
      { request: { method: "POST", path: "/shop/cart", body: { product_id: "7" } } },
      {
        change: {
          site: "shop",
          table: "orders",
          op: "insert",
          after: {
            shipping: "express",
            delivery_date: "2026-03-18",
            total: { number: 129.5 },
            note: { text: "Leave it at the door" },
          },
        },
      },
      {
        change: { site: "shop", table: "cart_items", op: "insert", after: { product_id: { present: true }, qty: 1 } },
        times: 15,
      },
      { page: { path: "/shop/orders/1042", query: {} } },
      { clipboard: { exact: "ORD-1042" } },
      { visited: "http://127.0.0.1:8318/shop/products/7" },
      { event: { action: "type" } },
    ],
  } as Check,
  verifier: { answer: { regex: "^ORD-\\d+$" } } as Verifier,
  solution: [],
};

const EV = evidence();
const TEXT = JSON.stringify(EV);
const FAILING: Check = { change: { table: "orders", op: "insert", after: { shipping: "standard" } } };

/** The regrade path for one episode: parse grade_inputs.json, then rebase, relax dates and gate (gradeTask). */
function regradeOne(): GateResult {
  return gradeTask(TASK, parseEvidence(JSON.parse(TEXT), "grade_inputs.json"));
}

/**
 * The same episode saved as the runner saves it (format_version, kind and task inside), regraded as regrade.ts does:
 * the run-folder format's check, then its kind's strategy and grade.
 */
const SAVED = JSON.stringify({ format_version: 1, kind: "datagen", ...EV, task: TASK });
function regradeThroughRegistry(): Promise<Verdict> {
  const { kind, inputs } = readGradeInputs(JSON.parse(SAVED), "grade_inputs.json", parseGradeInputs);
  return kind.grade(inputs, {});
}

const check = regradeOne();
if (!(await regradeThroughRegistry()).ok) throw new Error("the bench episode should pass through the registry");
if (!check.ok) throw new Error(`the bench episode should pass: ${check.detail}`);
if (gate(FAILING, null, EV).ok) throw new Error("the failing check should fail");

Deno.bench("gate() on a passing episode", { group: "gate", baseline: true }, () => {
  gate(TASK.check, TASK.verifier, EV);
});
Deno.bench("gate() on a failing episode (closest candidates)", { group: "gate" }, () => {
  gate(FAILING, null, EV);
});
Deno.bench("regrade one episode (JSON.parse + parseEvidence + rebase + relax + gate)", () => {
  regradeOne();
});
Deno.bench("regrade one episode as regrade.ts does (JSON.parse + readGradeInputs + its kind's grade)", async () => {
  await regradeThroughRegistry();
});

if (import.meta.main) {
  // Wall time and this process's CPU time per batch: on a shared machine the CPU figure is the steadier one.
  const batch = 200;
  const median = (xs: number[]) => Math.round(xs.sort((a, b) => a - b)[xs.length >> 1]);
  for (const [name, one] of [["gradeTask", regradeOne], ["registry", regradeThroughRegistry]] as const) {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let round = 0; round < 25; round++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      for (let i = 0; i < batch; i++) await one();
      const c = process.cpuUsage(c0);
      wall.push(batch / ((performance.now() - t0) / 1000));
      cpu.push(batch / ((c.user + c.system) / 1e6));
    }
    console.log(
      `regrade (${name}): median ${median(wall)} episodes/s wall, ${median(cpu)} episodes/s of CPU ` +
        `(25 batches of ${batch})`,
    );
  }
  console.log(`regrade (a run folder from disk): ${await folderRate()} episodes/s (median of 15 regradeRun calls)`);
}

/** regradeRun's rate over a copy of the demo folder: every file read and checked, every line written. */
async function folderRate(): Promise<number> {
  const tmp = await Deno.makeTempDir({ prefix: "webmix-grading-bench-" });
  const demo = fileURLToPath(new URL("../fixtures/run_folders/v1_demo", import.meta.url));
  await new Deno.Command("cp", { args: ["-R", demo, `${tmp}/demo`] }).output();
  const rates: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    const s = await regradeRun(`${tmp}/demo`);
    rates.push(s.results.length / ((performance.now() - t0) / 1000));
  }
  await Deno.remove(tmp, { recursive: true });
  return Math.round(rates.sort((a, b) => a - b)[7]);
}
