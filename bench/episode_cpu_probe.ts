/**
 * Chromium's and Deno's CPU time per episode, one worker, episodes in a row as the runner plays them: a fresh context
 * (the spare), the start page, four captures with a screenshot and a scroll between them, the recorder's flush, the
 * close; a 300 ms pause stands for the model. CPU from bench/_proc.ts (stable under load, unlike wall time).
 * Compares ways of serving the sandbox pages: `asis`, or `inline` (the stylesheet and scripts inlined into each
 * HTML page by a proxy in front of the sandbox, to see what the asset requests cost).
 *
 *   deno run -A bench/episode_cpu_probe.ts [EPISODES=20] [asis|inline] [START_PATH=/shop/products]
 *
 * CHROMIUM_ARGS="--flag ..." adds Chromium flags (e.g. to try --in-process-gpu).
 */
import { ChromiumBrowser } from "../lib/browser/mod.ts";
import { openStartPage } from "../lib/run/episode.ts";
import { APPS, createSandbox } from "../lib/sites/mod.ts";
import { STYLE_CSS } from "../lib/sites/page/style.ts";
import { TreeSampler } from "./_proc.ts";
const [n, mode, pageArg] = [Number(Deno.args[0] ?? 20), Deno.args[1] ?? "asis", Deno.args[2] ?? "/shop/products"];
const sandbox = createSandbox({ apps: APPS });
const assets = new Map<string, string>();
for (const a of ["recorder.js", "widgets.js"]) assets.set(a, await (await sandbox.request(`/_sandbox/${a}`)).text());
let requests = 0;
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req, info) => {
  requests++;
  const res = await sandbox.fetch(req, { remoteAddr: info.remoteAddr as { hostname: string; port: number } });
  if (mode !== "inline" || !(res.headers.get("content-type") ?? "").includes("text/html")) return res;
  let body = await res.text();
  body = body.replace('<link rel="stylesheet" href="/_sandbox/style.css">', `<style>${STYLE_CSS}</style>`)
    .replace('<script src="/_sandbox/recorder.js"></script>', `<script>${assets.get("recorder.js")}</script>`)
    .replace(
      '<script src="/_sandbox/widgets.js" defer></script>',
      `<script type="module">${assets.get("widgets.js")}</script>`,
    );
  const h = new Headers(res.headers);
  h.delete("content-length");
  return new Response(body, { status: res.status, headers: h });
});
const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
const dir = await Deno.makeTempDir();
const browser = await ChromiumBrowser.launch({
  prewarmOrigins: [base],
  args: (Deno.env.get("CHROMIUM_ARGS") ?? "").split(" ").filter(Boolean),
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const setup: number[] = [], step: number[] = [];
async function episode(i: number) {
  const t0 = performance.now();
  const s = await browser.newEpisode({
    allowedOrigins: [base],
    downloadDir: `${dir}/d${i}`,
    uploadDir: dir,
    viewport: { width: 1280, height: 720 },
  });
  await openStartPage(s, base, { logout: false, startUrl: base + pageArg });
  setup.push(performance.now() - t0);
  for (let k = 0; k < 4; k++) {
    const t1 = performance.now();
    await s.captureState({ screenshot: true });
    if (k === 0) void browser.prepareNext();
    if (k < 3) await s.scroll({ down: k !== 1, pages: 0.5 });
    step.push(performance.now() - t1);
    await sleep(300);
  }
  await s.flushRecorder();
  await s.close();
}
await episode(-1);
await episode(-2);
await sleep(1000);
setup.length = step.length = 0;
requests = 0;
const sampler = await TreeSampler.start(250, 100000);
for (let i = 0; i < n; i++) await episode(i);
const u = await sampler.stop();
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  JSON.stringify({
    mode,
    n,
    load: Deno.loadavg().map((x) => x.toFixed(1)).join(" "),
    chromiumCpuMs: Math.round(u.childCpuMs / n),
    denoCpuMs: Math.round(u.denoCpuMs / n),
    setupMs: Math.round(med(setup)),
    stepMs: Math.round(med(step)),
    requestsPerEp: +(requests / n).toFixed(1),
  }),
);
await browser.close();
await server.shutdown();
await Deno.remove(dir, { recursive: true });
