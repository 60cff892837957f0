/**
 * DOM capture cost: snapshotPage() on a small form page, on a 1,500-row table of links, inputs, selects and
 * buttons (about 25k nodes) and on a 1,500-row list of divs and spans bound by script (lib/dom/listeners.ts's
 * record installed as lib/browser installs it), limited to the viewport (the default) and over the whole page
 * (viewportExpansion -1).
 * "expression" is what the harness pays (lib/browser's snapshotTab: the call as one expression, the result by
 * value: capture plus transfer of the object); "round trip" is puppeteer's page.evaluate(snapshotPage), which sends
 * the function for Runtime.callFunctionOn; "JSON round trip" uses snapshotPageJson and JSON.parse; "in page" leaves
 * the result in the page and returns only its size, to separate capture from transfer. Viewport 1280×720. Medians go to stderr when the run ends.
 *
 *   deno bench --allow-net=127.0.0.1,localhost --allow-read --allow-write --allow-env --allow-run --allow-sys \
 *     bench/dom_bench.ts
 */
import puppeteer from "puppeteer-core";
import { CHROMIUM_FLAGS } from "../lib/browser/chromium.ts";
import { formatElements, type SnapshotOptions, snapshotPage } from "../lib/dom/mod.ts";
import { snapshotPageJson } from "../lib/dom/snapshot.ts";
import { formPage, listenerPage, tablePage } from "../lib/dom/testdata/pages.ts";
import { LISTENER_WATCH_SCRIPT } from "../lib/dom/mod.ts";

// Deno.bench has no teardown hook, so the profile is ours to remove and Chromium is stopped when the runner
// unloads this module (or on Ctrl-C).
const profile = Deno.makeTempDirSync({ prefix: "webmix_dom_bench_" });
const browser = await puppeteer.launch({
  executablePath: Deno.env.get("CHROME_PATH") ?? "/usr/bin/chromium",
  headless: true,
  userDataDir: profile,
  args: CHROMIUM_FLAGS,
  handleSIGINT: false,
  handleSIGTERM: false,
  handleSIGHUP: false,
});
/** Samples (ms) of each bench's measured region, for the medians printed on exit. */
const samples = new Map<string, number[]>();

function teardown(): void {
  const pid = browser.process()?.pid;
  // Puppeteer starts Chromium as a process group leader: stop the whole group at once (renderers included),
  // then remove the profile, retrying while the last writers die.
  if (pid) {
    try {
      Deno.kill(-pid, "SIGKILL");
    } catch {
      browser.process()?.kill("SIGKILL");
    }
  }
  for (let i = 0; i < 100; i++) {
    try {
      Deno.removeSync(profile, { recursive: true });
      break;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) break;
      Atomics.wait(new Int32Array(4), 0, 0, 20);
    }
  }
  const lines = [...samples].map(([name, ms]) => `  ${name}: median ${median(ms).toFixed(1)} ms (n=${ms.length})`);
  if (lines.length > 0) console.error(`dom_bench medians:\n${lines.join("\n")}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

globalThis.addEventListener("unload", teardown);
Deno.addSignalListener("SIGINT", () => {
  teardown();
  Deno.exit(130);
});

const page = await browser.newPage();
page.on("dialog", (d) => void d.dismiss());
await page.setViewport({ width: 1280, height: 720 });
// The listener record, as lib/browser installs it; setContent keeps the window, so it sees the pages' scripts.
await page.evaluateOnNewDocument(LISTENER_WATCH_SCRIPT);
await page.evaluate(LISTENER_WATCH_SCRIPT);
const PAGES = { form: formPage(), table: tablePage(1500), listeners: listenerPage(1500) };
const LABELS: Record<PageName, string> = {
  form: "form page",
  table: "table 1,500 rows",
  listeners: "listener-bound list 1,500 rows",
};
let loaded = "";

/** Loads `name` unless it is already the page's content (outside the measured region). */
async function show(name: keyof typeof PAGES): Promise<void> {
  if (loaded === name) return;
  await page.setContent(PAGES[name]);
  await page.evaluate(() => globalThis.scrollTo(0, 0));
  loaded = name;
}

type PageName = keyof typeof PAGES;
/** How a capture crosses into Deno: as an object, as JSON text, or not at all (the count only). */
type Transfer = "round trip" | "expression" | "JSON round trip" | "in page";

function run(transfer: Transfer, opts: SnapshotOptions): () => Promise<unknown> {
  if (transfer === "round trip") return () => page.evaluate(snapshotPage, opts);
  if (transfer === "JSON round trip") return async () => JSON.parse(await page.evaluate(snapshotPageJson, opts));
  const call = `(${snapshotPage.toString()})(${JSON.stringify(opts)})`;
  // The harness's own path (lib/browser's snapshotTab): the call as one expression, its result by value.
  if (transfer === "expression") return () => page.evaluate(call);
  const script = `${call}.elements.length`;
  return () => page.evaluate(script);
}

/** Registers one capture bench: loads the page outside the measured region, samples the region for medians. */
function benchCapture(name: PageName, scope: "viewport" | "whole page", transfer: Transfer): void {
  const label = `${LABELS[name]}, ${scope}, ${transfer}`;
  const capture = run(transfer, { viewportExpansion: scope === "viewport" ? 0 : -1 });
  const ms: number[] = [];
  samples.set(label, ms);
  Deno.bench(label, { group: name }, async (b) => {
    await show(name);
    b.start();
    const t0 = performance.now();
    await capture();
    ms.push(performance.now() - t0);
    b.end();
  });
}

benchCapture("form", "viewport", "round trip");
benchCapture("form", "whole page", "round trip");
for (const scope of ["viewport", "whole page"] as const) {
  for (const transfer of ["round trip", "expression", "JSON round trip", "in page"] as const) {
    benchCapture("table", scope, transfer);
  }
}

benchCapture("listeners", "viewport", "round trip");
benchCapture("listeners", "whole page", "JSON round trip");

// The listener-bound page is only a fair bench when its controls are indexed: each row's span, div and row.
await show("listeners");
const listed = await page.evaluate(snapshotPage, { viewportExpansion: 0 });
if (!listed.elements.some((e) => e.tag === "span" && e.text === "Item 1")) {
  throw new Error(`the listener-bound page's controls are not indexed: ${JSON.stringify(listed.elements.slice(0, 5))}`);
}

const wholeTable = await (async () => {
  await show("table");
  return await page.evaluate(snapshotPage, { viewportExpansion: -1 });
})();
Deno.bench("formatElements() of the whole table (6,000 elements)", { group: "format" }, () => {
  formatElements(wholeTable);
});
