/**
 * A harness process for tests/browser_orphans_test.ts: launches a ChromiumBrowser, opens an episode on a test
 * site, loads a page (so renderers run), prints `{"pid": <Chromium's pid>, "downloadDir": …}` on stdout and waits
 * to be killed.
 */
import { ChromiumBrowser } from "../../lib/browser/mod.ts";
import { episodeOptions, startTestSite } from "../browser_fixture.ts";

const site = startTestSite();
const browser = await ChromiumBrowser.launch();
const [options] = await episodeOptions(site.base);
const session = await browser.newEpisode(options);
await session.goto(`${site.base}/`);
console.log(JSON.stringify({ pid: browser.pid, downloadDir: options.downloadDir }));
await new Promise(() => {}); // until SIGKILL
