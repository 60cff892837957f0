/**
 * Browser harness costs on real Chromium, viewport 1280×720:
 * - episode set-up: newEpisode (fresh context, permissions, downloads, first tab) + goto of a sandbox page
 *   (/shop/ of the embedded sites), with the spare context prepared between episodes (the default: the runner
 *   grades between episodes; the bench leaves the spare 300 ms, outside the measured region) and without it;
 * - episode close; launching Chromium (up to a usable browser: profile, recording proxy, request filter) and
 *   closing it;
 * - the runner's start of an episode (newEpisode, session-flags, the start page, the evidence mark), with the next
 *   episode's spare context made during the start (as before issue 13) or after it (prepareNext, as the runner now
 *   asks once the model answers the first step);
 * - per step: captureState with a PNG / JPEG / no screenshot, a click (mouse, with the wait for what it caused),
 *   and capture PNG + click together, on the test page of tests/browser_fixture.ts and on /shop/;
 * - the screenshot's encoding alone on /shop/ (PNG as the suite takes it, with optimizeForSpeed; PNG without it;
 *   JPEG 80), with the image sizes.
 * Medians go to stderr when the run ends.
 *
 *   deno bench --allow-net=127.0.0.1,localhost --allow-read --allow-write --allow-env --allow-run --allow-sys \
 *     bench/browser_bench.ts
 */
import { ChromiumBrowser, type EpisodeSession } from "../lib/browser/mod.ts";
import {
  APPS,
  CookieChannel,
  endSession,
  lastSeq,
  readLoginState,
  readSessionStreams,
  startSession,
  startSites,
} from "../lib/sites/mod.ts";
import { episodeOptions, startTestSite } from "../tests/browser_fixture.ts";
import { killChromium } from "../tests/support/process_tree.ts";

const sites = await startSites({ apps: APPS });
const lab = startTestSite();
const warm = await ChromiumBrowser.launch();
const cold = await ChromiumBrowser.launch({ prewarm: false });
const stepper = await ChromiumBrowser.launch({ prewarm: false }); // one browser runs one episode at a time
const [options, cleanup] = await episodeOptions(sites.base, { allowedOrigins: [sites.base, lab.base] });
const samples = new Map<string, number[]>();

function record(name: string, ms: number): void {
  samples.set(name, [...(samples.get(name) ?? []), ms]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bytes = new Map<string, number>();

// Deno.bench has no teardown hook: close everything when the runner unloads this module.
globalThis.addEventListener("unload", () => {
  for (const b of [warm, cold, stepper]) if (b.pid) killChromium(b.pid);
  const lines = [...samples].map(([name, ms]) => `  ${name}: median ${median(ms).toFixed(1)} ms (n=${ms.length})`);
  for (const [name, n] of bytes) lines.push(`  ${name}: ${(n / 1024).toFixed(0)} KiB`);
  if (lines.length) console.error(`browser_bench medians:\n${lines.join("\n")}`);
});
globalThis.addEventListener("beforeunload", () => {
  void cleanup();
  void sites.close();
  void lab.close();
});

/** Times `fn` between b.start() and b.end(), recording the sample under `name`. */
async function timed(b: Deno.BenchContext, name: string, fn: () => Promise<unknown>): Promise<void> {
  b.start();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  b.end();
  record(name, ms);
}

for (const [browser, label] of [[warm, "spare context ready"], [cold, "no spare context"]] as const) {
  const name = `episode set-up (${label}): newEpisode + goto /shop/`;
  Deno.bench({ name, group: "episode", n: 20, warmup: 3 }, async (b) => {
    let session!: EpisodeSession;
    await timed(b, name, async () => {
      session = await browser.newEpisode(options);
      await session.goto(`${sites.base}/shop/`);
    });
    const t0 = performance.now();
    await session.close();
    record(`episode close (${label})`, performance.now() - t0);
    await new Promise((r) => setTimeout(r, 300)); // the runner grades here; the spare gets ready
  });
}

// Starting Chromium (a worker pays it once, and again after a crash): launch up to a usable browser, then close.
Deno.bench({ name: "launch (prewarm off)", group: "launch", n: 8, warmup: 1 }, async (b) => {
  let browser!: ChromiumBrowser;
  await timed(b, "launch (prewarm off)", async () => (browser = await ChromiumBrowser.launch({ prewarm: false })));
  const t0 = performance.now();
  await browser.close();
  record("close the browser", performance.now() - t0);
});

// Starting the sandbox session as the runner does: session-flags called from Deno, its cookie adopted, then the
// start page. (Loading /_admin/session-flags in the page, the old way, is refused now: /_admin is the harness's.)
{
  const name = "session start (session-flags from Deno + cookie) + goto /shop/";
  Deno.bench({ name, group: "session start", n: 20, warmup: 3 }, async (b) => {
    let session!: EpisodeSession;
    await timed(b, name, async () => {
      session = await warm.newEpisode(options);
      await session.adminCall(sites.base, "/_admin/session-flags");
      await session.goto(`${sites.base}/shop/`);
    });
    await session.close();
    await new Promise((r) => setTimeout(r, 300));
  });
}

// The runner's start of an episode (lib/run/episode.ts: openStartPage, then the evidence mark), the next episode's
// spare made during it (before: as soon as the start page loaded) or after it (prepareNext, while the model answers
// the first step; here after the timed region, as a first step would).
for (const during of [true, false]) {
  const name = `runner's start, spare made ${during ? "during the start (before)" : "after it (prepareNext)"}`;
  Deno.bench({ name, group: "runner's start", n: 20, warmup: 3 }, async (b) => {
    let session!: EpisodeSession;
    await timed(b, name, async () => {
      session = await warm.newEpisode(options);
      const started = await startSession(session, sites.base, { logout: false });
      await session.goto(`${sites.base}/shop/products`);
      if (during) void warm.prepareNext();
      await session.resetHistory();
      await Promise.all([
        readSessionStreams(session, sites.base, started).then(lastSeq),
        readLoginState(session, sites.base, started),
      ]);
    });
    if (!during) await warm.prepareNext();
    await session.captureState();
    const cookie = await session.cookieHeader(sites.base);
    await session.close();
    await endSession(new CookieChannel(cookie), sites.base);
    await new Promise((r) => setTimeout(r, 300));
  });
}

// One session for the per-step benches.
const stepSession = await stepper.newEpisode(options);
await stepSession.goto(`${lab.base}/`);
const state0 = await stepSession.captureState({ screenshot: false });
const inc = state0.snapshot.elements.find((e) => e.attributes.id === "inc")!.index;

for (const [format, screenshot] of [["png", true], ["jpeg", true], ["png", false]] as const) {
  const name = `captureState, ${screenshot ? format.toUpperCase() : "no screenshot"} (test page)`;
  Deno.bench({ name, group: "step", n: 40, warmup: 5 }, async (b) => {
    await timed(b, name, () => stepSession.captureState({ screenshot, format }));
  });
}

Deno.bench({ name: "click (mouse + settle)", group: "step", n: 40, warmup: 5 }, async (b) => {
  await stepSession.captureState({ screenshot: false });
  await timed(b, "click (mouse + settle)", () => stepSession.click(inc));
});

for (const format of ["png", "jpeg"] as const) {
  const name = `step: captureState ${format.toUpperCase()} + click`;
  Deno.bench({ name, group: "step", n: 40, warmup: 5 }, async (b) => {
    await timed(b, name, async () => {
      await stepSession.captureState({ format });
      await stepSession.click(inc);
    });
  });
}

Deno.bench({ name: "captureState PNG (sandbox /shop/)", group: "sandbox", n: 30, warmup: 3 }, async (b) => {
  if (!stepSession.currentUrl().includes("/shop/")) await stepSession.goto(`${sites.base}/shop/`);
  await timed(b, "captureState PNG (sandbox /shop/)", () => stepSession.captureState({ format: "png" }));
});

Deno.bench({ name: "adminGet /_admin/log", group: "sandbox", n: 30, warmup: 3 }, async (b) => {
  if (!stepSession.currentUrl().includes("/shop/")) await stepSession.goto(`${sites.base}/shop/`);
  await timed(b, "adminGet /_admin/log", () => stepSession.adminGet(sites.base, "/_admin/log"));
});

// The screenshot alone, by encoding (DevTools directly, as lib/browser/_capture.ts takes it).
for (
  const [label, params] of [
    ["PNG, optimizeForSpeed (the suite's)", { format: "png", optimizeForSpeed: true }],
    ["PNG, best compression", { format: "png" }],
    ["JPEG 80, optimizeForSpeed", { format: "jpeg", quality: 80, optimizeForSpeed: true }],
  ] as const
) {
  const name = `screenshot ${label} (sandbox /shop/)`;
  Deno.bench({ name, group: "screenshot", n: 30, warmup: 3 }, async (b) => {
    if (!stepSession.currentUrl().includes("/shop/")) await stepSession.goto(`${sites.base}/shop/`);
    await timed(b, name, async () => {
      const r = await stepSession.tab().cdp.send("Page.captureScreenshot", params);
      bytes.set(`${name} size`, Uint8Array.fromBase64(r.data).length);
    });
  });
}
