/**
 * Writes fixtures/run_folders/seed_layout: a run folder in the seed's exact layout (its run_episode and _run writer
 * code: results.jsonl with the seed's fields, and per episode grade_inputs.json {base, log, events, changes, clip,
 * answer, seen}, history.json and trace.json; no run.json, no steps.jsonl, no task in the grade inputs). The
 * episodes are real: the replay arm (passing) and near misses of fixtures/near_misses (failing), run through the
 * whole harness, then written as the seed wrote them.
 *
 *   deno run -A tests/support/seed_layout.ts
 */
import { join } from "node:path";
import { runConfig, runEval } from "../../lib/run/mod.ts";
import type { Script } from "../../lib/gen/mod.ts";
import { scriptedArm } from "../../lib/gen/mod.ts";
import type { RunTask } from "../../lib/tasks/mod.ts";
import { ROOT } from "./cli.ts";
import { bundledTasks, loadAllVariants } from "./near_misses.ts";

export const SEED_LAYOUT_DIR: string = join(ROOT, "fixtures/run_folders/seed_layout");

/** Episodes the replay arm passes: their checks have a seed counterpart. */
export const SEED_PASSING = [
  "shop_paginate_page3",
  "shop_search_merino",
  "shop_sort_computing_price_desc",
  "shop_answer_last_delivered_total",
  "mail_reply_daniel_walkthrough",
  "mail_label_shipment_finance",
  "mail_download_itinerary",
  "mail_answer_largest_invoice",
  "tracker_priority_api7_urgent",
  "tracker_answer_sprint14_points",
  "bookings_book_harbor_budget_sync",
  "bookings_juniper_floor_plan",
];

/** Episodes whose checks read evidence the seed never saved (recorder events, the login state). */
export const SEED_UNGRADEABLE = [
  "shop_copy_cancelled_order_number",
  "mail_login_to_inbox",
  "tracker_backlog_api14_to_top",
];

/** Near misses (task → variant name) that fail on evidence the seed saved. */
export const SEED_FAILING: Record<string, string> = {
  shop_switch_tab_monitor_specs: "specs_then_reviews",
  shop_review_burr_grinder: "review_on_kettle",
  shop_chart_keyboard_best_month: "second_tallest",
  mail_delete_weekly_brief: "deletes_both_issues",
  mail_search_lisbon: "search_then_open_result",
  tracker_export_api_urgent_csv: "high_priority",
  tracker_assign_api11_to_diego: "api12_assigned",
  bookings_cancel_all_hands_rehearsal: "rebooked",
  bookings_filter_video_rooms: "whiteboard",
};

/** The failing episode the seed's own gate passed (it had no unclaimed-write rule): a regrade changes it. */
export const SEED_LENIENT = "mail_delete_weekly_brief";

type Json = Record<string, unknown>;

/** The seed's result line: its fields in the order run_episode and _run set them. */
function seedResult(r: Json): Json {
  const line: Json = {
    task_id: r.task_id,
    episode: r.episode,
    macro: r.macro,
    site: r.site,
    arm: r.arm,
    ok: r.task_id === SEED_LENIENT ? true : r.ok,
    detail: r.task_id === SEED_LENIENT ? "passed" : r.detail,
    steps: r.steps,
    answer: r.answer ?? null,
    done: r.done,
    models: r.models,
    errors: r.errors,
    duration_s: r.duration_s,
    repeat: r.repeat,
  };
  return line;
}

/** grade_inputs.json as the seed's datagen branch wrote it. */
function seedGradeInputs(g: Json): Json {
  return {
    base: g.base,
    log: g.log,
    events: g.events,
    changes: g.changes,
    clip: g.clip,
    answer: g.answer ?? null,
    seen: g.seen,
  };
}

/** trace.json as the seed's router wrote it: the model and the actions of each request (and `gated`). */
function seedTrace(trace: Json[]): Json[] {
  return trace.map((t) => ({ model: t.model, action: t.action, ...(t.gated ? { gated: true } : {}) }));
}

/** Python's json.dumps separators (", " and ": "), as the seed wrote its files. */
function pyDumps(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  if (indent !== undefined) return text;
  // Outside strings only: walk the text.
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    out += c;
    if (inString) {
      if (c === "\\") out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "," || c === ":") out += " ";
  }
  return out;
}

async function main(): Promise<void> {
  const tasks = await bundledTasks();
  const variants = await loadAllVariants();
  const scripts = new Map<string, Script>();
  for (const [task, name] of Object.entries(SEED_FAILING)) {
    const v = variants.find((x) => x.task === task && x.name === name);
    if (!v) throw new Error(`no near miss ${task}/${name}`);
    scripts.set(task, v as Script);
  }
  const ids = [...SEED_PASSING, ...SEED_UNGRADEABLE, ...Object.keys(SEED_FAILING)];
  const run = ids.map((id) => tasks.get(id) as RunTask);
  const tmp = await Deno.makeTempDir({ prefix: "webmix-seed-layout-" });
  try {
    const config = runConfig({ arm: "replay", out: tmp, workers: 2, stepScreenshots: false });
    const summary = await runEval(config, { tasks: run, arm: scriptedArm(scripts), log: () => {} });
    await Deno.remove(SEED_LAYOUT_DIR, { recursive: true }).catch(() => {});
    await Deno.mkdir(SEED_LAYOUT_DIR, { recursive: true });
    let results = "";
    for (const id of ids) {
      const r = summary.results.find((x) => x.task_id === id) as Json | undefined;
      if (!r) throw new Error(`no result for ${id}`);
      const ep = String(r.episode);
      const dir = join(SEED_LAYOUT_DIR, ep);
      await Deno.mkdir(dir);
      const g = JSON.parse(await Deno.readTextFile(join(tmp, ep, "grade_inputs.json")));
      await Deno.writeTextFile(join(dir, "grade_inputs.json"), pyDumps(seedGradeInputs(g)));
      await Deno.copyFile(join(tmp, ep, "history.json"), join(dir, "history.json"));
      const trace = JSON.parse(await Deno.readTextFile(join(tmp, ep, "trace.json")));
      await Deno.writeTextFile(join(dir, "trace.json"), pyDumps(seedTrace(trace), 1));
      results += pyDumps(seedResult(r)) + "\n";
    }
    await Deno.writeTextFile(join(SEED_LAYOUT_DIR, "results.jsonl"), results);
    for (const r of summary.results) console.log(`${r.ok ? "OK  " : "FAIL"} ${r.task_id} ${r.reason ?? ""}`);
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await main();
