/**
 * The episode viewer end to end: a real run of the base arm (eval.ts → the fixture model server → real Chromium on
 * the real sandbox), `deno task viewer` on its folder, and the page opened from file:// in real Chromium: filtered,
 * searched, and a failed episode opened down to its steps. The page's screenshot is kept at
 * .out/viewer_test/viewer.png.
 */
import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import puppeteer, { type Page } from "puppeteer-core";
import { chromiumPath } from "../lib/browser/mod.ts";
import { CHROMIUM_FLAGS } from "../lib/browser/chromium.ts";
import { REASONS } from "../lib/protocol/mod.ts";
import { agentReply, startFixtureModelServer } from "./fixture_model_server.ts";
import { readResults, ROOT, runCli, runTask } from "./support/cli.ts";

const PAGINATE = "shop_paginate_page3";
const BOARD = "tracker_board_mob15_to_in_progress_via_menu";
const SPECS = "shop_switch_tab_monitor_specs";
const SHOT = join(ROOT, ".out", "viewer_test", "viewer.png");

/** A base-arm run: PAGINATE passes; BOARD fails with a failing click; SPECS fails at once (done without acting). */
async function baseRun(): Promise<string> {
  await using server = startFixtureModelServer({
    episodes: [{
      marker: "In the shop's product list, go to page 3.",
      steps: [
        { reply: agentReply({ navigate: { url: "/shop/products?page=3" } }) },
        { reply: agentReply({ done: { text: "on page 3", success: true } }) },
      ],
    }, {
      marker: "switch to the Mobile App board with the project switcher",
      steps: [
        {
          reply: {
            ...agentReply({ navigate: { url: "/tracker/projects/MOB/board" } }),
            thinking: "The board is one link away",
            next_goal: "Find the card MOB-15 on the board",
          },
        },
        { reply: agentReply({ click: { index: 9999 } }) },
        { reply: agentReply({ done: { text: "moved", success: true } }) },
      ],
    }, {
      marker: "open the Specifications tab",
      steps: [{ reply: agentReply({ done: { text: "opened", success: true } }) }],
    }],
  });
  const out = await Deno.makeTempDir({ prefix: "webmix-viewer-" });
  const r = await runCli("eval.ts", [
    "--arm",
    "base",
    "--out",
    out,
    "--vllm",
    server.url,
    "--workers",
    "1",
    "--task-ids",
    `${PAGINATE},${BOARD},${SPECS}`,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return out;
}

/** The text the page shows in an element (what a reader sees). */
const textOf = (page: Page, selector: string) => page.$eval(selector, (el) => (el as HTMLElement).innerText);

Deno.test("viewer.html lists, filters and opens a run's episodes from file://, steps and evidence included", async () => {
  const out = await baseRun();
  const results = await readResults(out);
  assert.deepEqual(results.map((r) => r.status).sort(), ["failed", "failed", "passed"]);
  // An episode from before steps.jsonl: the viewer falls back to history.json.
  await Deno.remove(join(out, PAGINATE, "steps.jsonl"));

  // As a user runs it, with the task's permissions (read and write only), from the folder above the run's.
  const written = await runTask("viewer", [basename(out)], { cwd: dirname(out) });
  assert.equal(written.code, 0, written.stderr);
  const html = join(out, "viewer.html");
  assert.equal(written.stdout.trim(), join(basename(out), "viewer.html"));
  const text = await Deno.readTextFile(html);
  assert.doesNotMatch(
    text,
    /data:image|base64|https?:\/\/(?!127\.0\.0\.1)[^"\s]*\.(js|css)/,
    "no inlined image or resource",
  );
  // The step records read back for the assertions below: what the model was shown at BOARD's first step.
  const [first] = (await Deno.readTextFile(join(out, BOARD, "steps.jsonl"))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const elementLine = (first.request.text as string).split("\n").find((l) => /^\[\d+\]<a /.test(l))!;
  assert.ok(elementLine, first.request.text);
  const system = await Deno.readTextFile(join(out, "prompts", `${first.request.system_sha256}.txt`));

  const browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.setViewport({ width: 1400, height: 1100 });
    await page.goto(`file://${html}`);
    assert.equal(await textOf(page, "#shown"), "3 of 3 episodes");

    await page.select("#f-status", "failed");
    const listed = await page.$$eval("#rows tr", (rows) => rows.map((r) => r.children[1].textContent));
    const failed = results.filter((r) => r.status === "failed").map((r) => r.episode);
    assert.deepEqual(listed.sort(), failed.sort());
    assert.equal(await textOf(page, "#shown"), `${failed.length} of 3 episodes`);
    const option = await page.$eval("#f-status", (s) => (s as HTMLSelectElement).selectedOptions[0].textContent);
    assert.equal(option, `failed (${failed.length})`);
    // Each failed episode's reason code (lib/grading's to decide) is the badge beside its status.
    const badges = await page.$$eval(
      "#rows tr",
      (rows) => rows.map((r) => [r.children[1].textContent, r.querySelector(".badge.reason")?.textContent ?? null]),
    );
    const reasons = results.filter((r) => r.status === "failed").map((r) => [r.episode, r.reason ?? "(none)"]);
    assert.deepEqual(badges.sort(), reasons.sort());

    await page.type("#q", "mobile app board");
    assert.deepEqual(await page.$$eval("#rows tr", (rows) => rows.map((r) => r.children[1].textContent)), [BOARD]);
    await page.click("#rows tr");
    await page.waitForFunction((ep) => document.querySelector("#detail h2")?.textContent?.includes(ep), {}, BOARD);
    // The request text and the system prompt enter the page when their <details> is opened.
    for (const label of ["What the model was shown", "System prompt"]) {
      const [summary] = await page.$$(`xpath/(//section[@class="step"])[1]//summary[starts-with(., "${label}")]`);
      await summary.click();
    }
    // The toggle event that fills them comes after the click.
    await page.waitForFunction(() => document.querySelectorAll("section.step")[0].querySelectorAll("pre").length === 2);
    const detail = await textOf(page, "#detail");
    const board = results.find((r) => r.episode === BOARD)!;
    for (
      const shown of [
        elementLine,
        system.split("\n")[0],
        "The board is one link away",
        "Find the card MOB-15 on the board",
        'navigate {"url":"/tracker/projects/MOB/board"}',
        'click {"index":9999}',
        "✗ click: there is no element with index 9999 on the page",
        board.detail as string,
        "GET /tracker/projects/MOB/board → 200",
        '"change": {',
        "Steps (3 from steps.jsonl)",
      ]
    ) assert.ok(detail.includes(shown), `the detail shows ${JSON.stringify(shown)}:\n${detail}`);
    assert.equal(await page.$eval(".actions li.fail code", (c) => c.textContent), 'click {"index":9999}');
    // The screenshot is the episode folder's file, by relative path, and it loads from file://.
    const img = await page.$eval("section.step img", async (el) => {
      const img = el as HTMLImageElement;
      img.scrollIntoView();
      await img.decode();
      return { src: img.getAttribute("src"), width: img.naturalWidth };
    });
    assert.deepEqual(img, { src: `${BOARD}/step_1.png`, width: 1280 });
    await Deno.mkdir(join(ROOT, ".out", "viewer_test"), { recursive: true });
    await page.evaluate(() => document.getElementById("detail")!.scrollTo(0, 0));
    await page.setViewport({ width: 1400, height: 2400 });
    await page.screenshot({ path: SHOT as `${string}.png` });
    console.log(`viewer screenshot: ${SHOT}`);

    // The episode without steps.jsonl shows its history.json steps; the URL's hash opens it.
    await page.goto(`file://${html}#${PAGINATE}`);
    await page.waitForFunction((ep) => document.querySelector("#detail h2")?.textContent?.includes(ep), {}, PAGINATE);
    const paginate = await textOf(page, "#detail");
    assert.ok(paginate.includes("Steps (2 from history.json)"), paginate);
    assert.ok(paginate.includes('navigate {"url":"/shop/products?page=3"} ✓'), paginate);
    assert.deepEqual(errors, []);
  } catch (err) {
    console.error(await page.$eval("main", (m) => m.outerHTML).catch(() => "(no page)"));
    throw err;
  } finally {
    await browser.close();
  }
  await Deno.remove(out, { recursive: true });
});

/**
 * A run folder of hand-written lines (no episode folders): failures with reason codes, one from before them, an arm
 * failure, a pending episode with its reason, a pass and a harness error (which have none).
 */
async function reasonsRun(): Promise<string> {
  const out = await Deno.makeTempDir({ prefix: "webmix-viewer-reasons-" });
  const paginate = { macro: "paginate", site: "shop", family: "Navigation", arm: "base", duration_s: 1 };
  const lines = [
    { task_id: "t_a", repeat: 0, ok: false, status: "failed", reason: "final_page", detail: "ended on page 2" },
    { task_id: "t_a", repeat: 1, ok: false, status: "failed", reason: "final_page" },
    { task_id: "t_a", repeat: 2, ok: true, status: "passed" },
    { task_id: "t_b", repeat: 0, ok: false, status: "failed", reason: "field_mismatch" },
    { task_id: "t_b", repeat: 1, ok: false, detail: "the slider is at 40" },
    { task_id: "t_c", repeat: 0, ok: false, status: "failed", reason: "answer_wrong" },
    { task_id: "t_c", repeat: 1, ok: false, status: "pending", reason: "answer_unaccounted", detail: "pending: judge" },
    { task_id: "t_d", repeat: 0, ok: false, status: "failed", arm_failure: "reference step 2 failed" },
    { task_id: "t_d", repeat: 1, ok: false, status: "error", error: "HarnessError: the browser died" },
  ].map((l) => JSON.stringify({ ...paginate, ...l, episode: `${l.task_id}~r${l.repeat}` }));
  await Deno.writeTextFile(join(out, "results.jsonl"), lines.join("\n") + "\n");
  return out;
}

Deno.test("viewer.html filters by reason code and shows each failed episode's reason beside its status", async () => {
  const out = await reasonsRun();
  const written = await runTask("viewer", [out]);
  assert.equal(written.code, 0, written.stderr);
  const html = join(out, "viewer.html");
  const browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  /** Each listed row: its episode, its status badge, its reason badge (null when it has none). */
  const rows = () =>
    page.$$eval("#rows tr", (trs) =>
      trs.map((tr) => [
        tr.children[1].textContent,
        tr.querySelector(".badge:not(.reason)")?.textContent,
        tr.querySelector(".badge.reason")?.textContent ?? null,
      ]));
  try {
    await page.goto(`file://${html}`);
    assert.equal(await textOf(page, "#shown"), "9 of 9 episodes");
    // The reasons present, in REASONS' order, then (arm failure) and (none); nothing for the pass and the error.
    const options = await page.$$eval(
      "#f-reason option",
      (os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]),
    );
    assert.deepEqual(options, [
      ["", "every reason (9)"],
      ["field_mismatch", "field_mismatch (1)"],
      ["final_page", "final_page (2)"],
      ["answer_wrong", "answer_wrong (1)"],
      ["answer_unaccounted", "answer_unaccounted (1)"],
      ["(arm failure)", "(arm failure) (1)"],
      ["(none)", "(none) (1)"],
    ]);
    assert.deepEqual(await rows(), [
      ["t_a~r0", "failed", "final_page"],
      ["t_a~r1", "failed", "final_page"],
      ["t_a~r2", "passed", null],
      ["t_b~r0", "failed", "field_mismatch"],
      ["t_b~r1", "failed", "(none)"],
      ["t_c~r0", "failed", "answer_wrong"],
      ["t_c~r1", "pending", "answer_unaccounted"],
      ["t_d~r0", "failed", "(arm failure)"],
      ["t_d~r1", "error", null],
    ]);
    // The badge's tooltip says what the code means (lib/grading REASONS).
    assert.equal(await page.$eval("#rows tr .badge.reason", (b) => b.getAttribute("title")), REASONS.final_page);

    await page.select("#f-reason", "final_page");
    assert.deepEqual(await rows(), [["t_a~r0", "failed", "final_page"], ["t_a~r1", "failed", "final_page"]]);
    assert.equal(await textOf(page, "#shown"), "2 of 9 episodes");
    await page.select("#f-reason", "(none)");
    assert.deepEqual(await rows(), [["t_b~r1", "failed", "(none)"]]);
    // With the status filter: failed and answer_unaccounted (a pending episode's reason) list nothing.
    await page.select("#f-reason", "answer_unaccounted");
    await page.select("#f-status", "failed");
    assert.deepEqual(await rows(), []);
    await page.select("#f-status", "");
    assert.deepEqual(await rows(), [["t_c~r1", "pending", "answer_unaccounted"]]);

    await page.click("#rows tr");
    await page.waitForFunction(() => document.querySelector("#detail h2")?.textContent?.includes("t_c~r1"));
    assert.equal(await textOf(page, "#detail h2"), "pendinganswer_unaccounted t_c~r1");
    const fields = await page.$$eval(
      "#detail .result .field",
      (fs) => fs.map((f) => [f.querySelector("b")?.textContent, f.lastChild?.textContent]),
    );
    assert.deepEqual(fields.slice(0, 3), [
      ["Status", "pending"],
      ["Reason", `answer_unaccounted: ${REASONS.answer_unaccounted}`],
      ["Detail", "pending: judge"],
    ]);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
  await Deno.remove(out, { recursive: true });
});

Deno.test("deno task viewer refuses a folder without results.jsonl, naming it, with exit 2", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-viewer-" });
  const r = await runTask("viewer", [dir]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`"${dir}" holds no results\\.jsonl`));
  assert.equal(r.stdout, "");
  await Deno.remove(dir);
});
