/**
 * EpisodeSession on real Chromium: navigation, state capture, the request filter, dialogs, downloads, uploads,
 * tabs, the clipboard, admin calls, a hung page and a dead browser.
 */
import assert from "node:assert/strict";
import { liveInGroup } from "./support/process_tree.ts";
import { ActionError, ChromiumBrowser } from "../lib/browser/mod.ts";
import { APPS, startSites } from "../lib/sites/mod.ts";
import { BrowserTimeoutError, HarnessError, SiteProtocolError } from "../lib/errors/mod.ts";
import { episodeOptions, inEpisode, startTestSite, until } from "./browser_fixture.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({ name: "EpisodeSession on Chromium", ...opts }, async (t) => {
  const site = startTestSite();
  await using browser = await ChromiumBrowser.launch();
  const { base } = site;
  try {
    await t.step("captureState() returns the snapshot, element list, tabs and a PNG or JPEG", async () => {
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/`);
        const png = await s.captureState({ screenshot: true });
        assert.equal(png.title, "Lab main");
        assert.equal(png.url, `${base}/`);
        assert.deepEqual(png.tabs, [{ id: s.tabId, url: `${base}/`, title: "Lab main" }]);
        assert.ok(png.snapshot.elements.some((e) => e.attributes.id === "inc"), "the button is indexed");
        assert.match(png.elementsText, /Add one/);
        assert.match(png.visibleText, /Lab/);
        assert.deepEqual([...png.screenshot!.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
        const jpeg = await s.captureState({ format: "jpeg" });
        assert.deepEqual([...jpeg.screenshot!.slice(0, 2)], [0xff, 0xd8]);
        const none = await s.captureState({ screenshot: false });
        assert.equal(none.screenshot, undefined);
      });
    });

    await t.step("the request filter aborts and records requests off the allowed origins", async () => {
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/offsite`);
        await until(async () => (await s.tab().page.title()) === "fetched");
        assert.ok(s.blocked.includes("http://example.invalid/x.png"), `blocked: ${s.blocked}`);
        assert.ok(s.blocked.includes("http://127.0.0.2:9/"), `blocked: ${s.blocked}`);
        assert.ok(!s.blocked.some((u) => u.startsWith(base)), "own origin never blocked");
        await assert.rejects(s.goto("http://127.0.0.2:9/x"), ActionError);
        assert.ok(s.blocked.includes("http://127.0.0.2:9/x"));
        assert.equal(s.currentUrl(), `${base}/offsite`, "a refused goto leaves the page");
      });
    });

    await t.step("a confirm() dialog is accepted and recorded", async () => {
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/`);
        const state = await s.captureState({ screenshot: false });
        await s.click(await s.locate({ selector: "#confirm" }, state.snapshot.elements));
        assert.equal(await s.tab().page.$eval("#status", (e) => e.textContent), "confirmed");
        assert.deepEqual(s.dialogs.map((d) => [d.type, d.message]), [["confirm", "Delete it?"]]);
      });
    });

    await t.step("a download lands in downloadDir", async () => {
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/`);
        const state = await s.captureState({ screenshot: false });
        assert.deepEqual(await s.downloads(), []);
        await s.click(await s.locate({ selector: "#dl" }, state.snapshot.elements));
        assert.ok(await until(async () => (await s.downloads()).includes("report.csv")), "report.csv downloaded");
        const text = await Deno.readTextFile(`${s.options.downloadDir}/report.csv`);
        assert.equal(text, "id,total\n1,42\n");
        assert.equal(s.currentUrl(), `${base}/`, "the page stays");
      });
    });

    await t.step("uploadFile() takes files from the upload folder only", async () => {
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/`);
        const { snapshot } = await s.captureState({ screenshot: false });
        const input = await s.locate({ selector: "#file" }, snapshot.elements);
        await s.uploadFile(input, "notes.txt");
        assert.match(await s.tab().page.$eval("#status", (e) => e.textContent!), /^file:notes\.txt\/\d+$/);
        const pick = await s.locate({ selector: "#pick" }, snapshot.elements);
        await s.uploadFile(pick, "pixel.png"); // a button that opens the file chooser
        assert.equal(await s.tab().page.$eval("#status", (e) => e.textContent), "file:pixel.png/70");
        await assert.rejects(s.uploadFile(input, "../deno.json"), /must be a file name inside the upload folder/);
        await assert.rejects(s.uploadFile(input, "/etc/passwd"), ActionError);
        await assert.rejects(s.uploadFile(input, "missing.bin"), /no file "missing.bin"/);
      });
    });

    await t.step("a target=_blank link opens a tab that becomes current; switchTab() and closeTab() work", async () => {
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/`);
        const first = s.tabId;
        const { snapshot } = await s.captureState({ screenshot: false });
        await s.click(await s.locate({ selector: "#newtab" }, snapshot.elements));
        const tabs = await s.tabs();
        assert.equal(tabs.length, 2);
        assert.deepEqual(tabs[1], { id: s.tabId, url: `${base}/next?from=tab`, title: "Next" });
        assert.notEqual(s.tabId, first);
        await s.switchTab(first);
        assert.equal(s.currentUrl(), `${base}/`);
        const again = await s.captureState({ screenshot: false }); // a background tab that came back can act
        await s.click(await s.locate({ selector: "#inc" }, again.snapshot.elements));
        assert.equal(await s.tab().page.$eval("#count", (e) => e.textContent), "1");
        await assert.rejects(s.switchTab("zzzz"), /no tab "zzzz" \(open tabs: /);
        await s.closeTab(tabs[1].id);
        assert.equal((await s.tabs()).length, 1);
        await assert.rejects(s.closeTab(first), /only tab/);
      });
    });

    await t.step(
      "a noopener link whose page answers late: the click waits for its tab, which becomes current",
      async () => {
        // Chromium announces the tab (Page.windowOpen) at once but creates it only when the response arrives: 2.5 s
        // here, past the second a click's own guess of a new tab is given. A demonstration replying at once to the
        // next screen ended on the old page (issue 37: mail.open_new_tab.open_attachment-d598c72a).
        await inEpisode(browser, base, async (s) => {
          await s.goto(`${base}/`);
          const { snapshot } = await s.captureState({ screenshot: false });
          await s.click(await s.locate({ selector: "#newtab-slow" }, snapshot.elements));
          assert.equal(s.currentUrl(), `${base}/slow?ms=2500`, "the click's step ends on the new tab");
          assert.equal((await s.tabs()).length, 2);
        });
      },
    );

    await t.step("the clipboard: a page's copy, writeClipboard() and clipboardText()", async () => {
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/`);
        assert.equal(await s.clipboardText(), "", "a new episode starts with an empty clipboard");
        const { snapshot } = await s.captureState({ screenshot: false });
        await s.click(await s.locate({ selector: "#copy" }, snapshot.elements));
        assert.ok(await until(async () => (await s.clipboardText()) === "ORD-1042"));
        await s.writeClipboard("hello clipboard");
        assert.equal(await s.clipboardText(), "hello clipboard");
      });
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/`);
        assert.equal(await s.clipboardText(), "", "the next episode does not see the last one's clipboard");
      });
    });

    await t.step("cookieHeader() and adminGet() call the site as the session", async () => {
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/cookie`);
        assert.equal(await s.cookieHeader(base), "sid=abc");
        assert.deepEqual(await s.adminGet(base, "/json"), { cookie: "sid=abc" });
        await assert.rejects(
          s.adminGet(base, "/text"),
          (e) => e instanceof SiteProtocolError && /\/text/.test(e.message),
        );
        await assert.rejects(s.adminGet(base, "/nope"), /GET http:\/\/127\.0\.0\.1:\d+\/nope answered 404/);
      });
    });

    await t.step("goto() of a page that never answers fails with BrowserTimeoutError in time", async () => {
      await inEpisode(browser, base, async (s) => {
        const started = performance.now();
        await assert.rejects(s.goto(`${base}/hang`), BrowserTimeoutError);
        const took = performance.now() - started;
        assert.ok(took >= 700 && took < 3000, `took ${took} ms`);
        await s.goto(`${base}/next`); // the session goes on
        assert.equal((await s.captureState({ screenshot: false })).title, "Next");
      }, { navTimeoutMs: 800 });
    });

    await t.step(
      "an aborted signal closes the session; the spare page makes no request",
      async () => {
        const ac = new AbortController();
        const [o, cleanup] = await episodeOptions(base, { signal: ac.signal });
        const before = site.requests.length;
        try {
          const s = await browser.newEpisode(o);
          await s.goto(`${base}/next`);
          ac.abort();
          assert.ok(await until(() => s.closed));
          await assert.rejects(s.captureState(), /session is closed/);
        } finally {
          await cleanup();
        }
        await until(() => false, 300); // a spare made when the session closed has had time to load something
        assert.deepEqual(site.requests.slice(before).filter((r) => r !== "GET /next"), []);
      },
    );

    await t.step("while an episode runs, the site hears only that episode's tab: no warm-up favicon", async () => {
      // The spare page, warmed once the episode's first page loads, once asked the site for a favicon without
      // the episode's cookie. The sandbox answered with a fresh session's cookie, which could overwrite in the
      // browser the session the harness had just reset: a logged-out task then started signed in.
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/cookie`);
        const before = site.cookieless.length;
        const spare = browser.prepareNext(); // as the runner asks once an episode's start is over
        await s.goto(`${base}/next`);
        assert.equal(await spare, true);
        await until(() => false, 800);
        assert.deepEqual(site.cookieless.slice(before), []);
      });
    });

    await t.step("prepareNext() readies a fresh context during an episode, which the next episode takes", async () => {
      await inEpisode(browser, base, async (s) => {
        await s.goto(`${base}/cookie`); // this context now holds sid=abc
        assert.equal(await s.cookieHeader(base), "sid=abc");
        assert.equal(await browser.prepareNext(), true);
        // The spare's making changed nothing for the episode that runs: its route, its tab, its cookies.
        await s.goto(`${base}/json`);
        assert.match(await s.tab().evaluate<string>("document.body.textContent"), /sid=abc/);
      });
      const opened = Date.now();
      await inEpisode(browser, base, async (s) => {
        // This episode took the spare, not a new page: its blank document is older than the episode.
        assert.equal(s.currentUrl(), "about:blank");
        const born = await s.tab().evaluate<number>("performance.timeOrigin");
        assert.ok(born < opened, `the episode's page was made ${born - opened} ms after the episode was asked for`);
        assert.equal(await s.cookieHeader(base), "", "the spare shares no cookie with the episode it was made during");
      });
      await using cold = await ChromiumBrowser.launch({ prewarm: false });
      await inEpisode(cold, base, async () => assert.equal(await cold.prepareNext(), false));
    });

    await t.step("newEpisode() refuses an episode past maxEpisodes, and bad origins", async () => {
      const [o, cleanup] = await episodeOptions(base);
      try {
        await using _s = await browser.newEpisode(o);
        await assert.rejects(browser.newEpisode(o), /runs 1 episode\(s\), its most \(maxEpisodes 1\)/);
      } finally {
        await cleanup();
      }
      const [bad, cleanup2] = await episodeOptions(base, { allowedOrigins: ["127.0.0.1:80"] });
      await assert.rejects(browser.newEpisode(bad), /allowed origin "127.0.0.1:80"/).finally(cleanup2);
    });
  } finally {
    await browser.close();
    await site.close();
  }
});

Deno.test({ name: "ChromiumBrowser knows when Chromium died", ...opts }, async () => {
  const site = startTestSite();
  const browser = await ChromiumBrowser.launch({ prewarm: false });
  const [o, cleanup] = await episodeOptions(site.base);
  try {
    const s = await browser.newEpisode(o);
    await s.goto(`${site.base}/`);
    assert.equal(browser.alive, true);
    Deno.kill(browser.pid!, "SIGKILL");
    assert.ok(await until(() => !browser.alive), "alive turns false");
    await assert.rejects(s.captureState(), (e) => e instanceof HarnessError && !(e instanceof ActionError));
    await assert.rejects(browser.newEpisode(o), /not running/);
    await s.close(); // never throws
  } finally {
    await browser.close();
    await browser.close(); // idempotent
    await cleanup();
    await site.close();
  }
});

Deno.test({ name: "ChromiumBrowser.close() kills a Chromium that does not exit", ...opts }, async () => {
  const browser = await ChromiumBrowser.launch({ prewarm: false });
  const pid = browser.pid!;
  // Through ps: reading /proc/<pid> takes --allow-all, and without it every process would read as gone.
  const running = () => liveInGroup(pid).includes(pid);
  try {
    assert.ok(running(), "Chromium runs before the close");
    Deno.kill(pid, "SIGSTOP"); // a frozen browser never answers Browser.close
    const started = performance.now();
    await browser.close();
    assert.ok(performance.now() - started < 3000);
    assert.ok(await until(() => !running()), "the process is gone");
  } finally {
    try {
      Deno.kill(-pid, "SIGKILL");
    } catch { /* gone, as it should be */ }
  }
});

Deno.test("ChromiumBrowser.launch() names the missing binary and the fix", async () => {
  await assert.rejects(
    ChromiumBrowser.launch({ executablePath: "/nonexistent/chromium" }),
    (e) =>
      e instanceof HarnessError && /"\/nonexistent\/chromium"/.test(e.message) && /apt-get install chromium/.test(
        e.message,
      ) && /CHROME_PATH/.test(e.message),
  );
});

Deno.test({
  name: "a sandbox link that opens a new tab (rel=noopener) has its tab open when the click returns",
  ...opts,
}, async () => {
  // Chromium reports such a tab after the click returns; an episode that ended right after the click could read a
  // final state without it (seen on the Juniper floor plan task under load). The click now waits for the tab.
  await using sites = await startSites({ apps: APPS });
  const browser = await ChromiumBrowser.launch();
  try {
    for (let i = 0; i < 4; i++) {
      await inEpisode(browser, sites.base, async (s) => {
        await s.goto(`${sites.base}/bookings/rooms/10`);
        const { snapshot } = await s.captureState({ screenshot: false });
        await s.click(await s.locate({ selector: "#floor-plan" }, snapshot.elements));
        const urls = (await s.tabs()).map((t) => new URL(t.url).pathname);
        assert.deepEqual(urls, ["/bookings/rooms/10", "/bookings/floors/3"]);
      });
    }
  } finally {
    await browser.close();
  }
});
