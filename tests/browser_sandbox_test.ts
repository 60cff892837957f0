/**
 * EpisodeSession against the real sandbox server (lib/sites): the session cookie reaches the admin endpoints, the
 * recorder's stream arrives after flushRecorder(), a page's copy button lands in the session's clipboard stream,
 * and clearing the clipboard at the episode's start is not recorded as a copy.
 */
import assert from "node:assert/strict";
import { ChromiumBrowser } from "../lib/browser/mod.ts";
import { executeAction } from "../lib/agent/mod.ts";
import { APPS, startSites } from "../lib/sites/mod.ts";
import { inEpisode, until } from "./browser_fixture.ts";

type Entries = { entries: Record<string, unknown>[] };

Deno.test({ name: "EpisodeSession on the sandbox sites", sanitizeOps: false, sanitizeResources: false }, async () => {
  await using sites = await startSites({ apps: APPS });
  await using browser = await ChromiumBrowser.launch();
  const { base } = sites;
  await inEpisode(browser, base, async (s) => {
    await s.goto(`${base}/mail/contacts`);
    assert.match(await s.cookieHeader(base), /^webmix_sid=/);
    const state = await s.captureState({ screenshot: false });
    const copy = state.snapshot.elements.find((e) => e.text === "Copy address");
    assert.ok(copy, state.elementsText);
    const r = await executeAction(s, { click: { index: copy.index } }, { base, state });
    assert.ok(r.ok, r.error);
    await s.flushRecorder();
    const clip = await s.adminGet(base, "/_admin/clipboard") as Entries;
    assert.ok(await until(async () => (await s.clipboardText()).includes("@")), "the page copied an address");
    assert.equal(clip.entries.length, 1, JSON.stringify(clip.entries)); // the start's clearing is not there
    assert.equal(clip.entries[0].text, await s.clipboardText());
    const record = await s.adminGet(base, "/_admin/record") as Entries;
    assert.ok(record.entries.some((e) => e.type === "observation" && e.kind === "page_load"));
    assert.ok(record.entries.some((e) => e.action === "click" && String(e.target).includes("Copy address")));
    const log = await s.adminGet(base, "/_admin/log") as Entries;
    assert.ok(log.entries.some((e) => e.method === "GET" && e.path === "/mail/contacts"));
  });
});

Deno.test({
  name: "the sandbox's icon-only row actions and scrolling schedule, as the element list shows them",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  await using sites = await startSites({ apps: APPS });
  await using browser = await ChromiumBrowser.launch();
  const { base } = sites;
  // Mail's Inbox rows: buttons with no text, label or title, named by their class (docs/perception.md).
  await inEpisode(browser, base, async (s) => {
    await s.goto(`${base}/mail/inbox`);
    const state = await s.captureState({ screenshot: false });
    const archive = state.snapshot.elements.find((e) => e.attributes.id === "archive-24");
    assert.ok(archive, state.elementsText);
    assert.equal(archive.attributes.label, "archive", state.elementsText);
    assert.match(state.elementsText, new RegExp(`\\[${archive.index}\\]<button id=archive-24 label=archive />`));
    const unread = state.snapshot.elements.find((e) => e.attributes.id?.startsWith("unread-"));
    assert.equal(unread?.attributes.label, "mail unread", state.elementsText); // its icon's symbol, before its class
    const r = await executeAction(s, { click: { index: archive.index } }, { base, state });
    assert.ok(r.ok, r.error);
    const changes = await s.adminGet(base, "/_admin/changes") as Entries;
    assert.ok(
      await until(async () =>
        ((await s.adminGet(base, "/_admin/changes")) as Entries).entries.some((e) =>
          e.table === "messages" && e.key === 24 && (e.after as Record<string, unknown>)?.folder === "archive"
        )
      ),
      JSON.stringify(changes.entries),
    );
  });
  // Bookings' room schedule: a panel that scrolls; its hidden slots are not on screen until it is scrolled.
  await inEpisode(browser, base, async (s) => {
    await s.goto(`${base}/bookings/rooms/3/schedule`);
    const state = await s.captureState({ screenshot: false });
    const panel = state.snapshot.elements.find((e) => e.attributes.id === "schedule-panel");
    assert.ok(panel, state.elementsText);
    const below = Number(/^0px above, (\d+)px below$/.exec(panel.attributes.scroll ?? "")?.[1]);
    assert.ok(below > 0, `the panel says what it hides: ${panel.attributes.scroll}`);
    assert.ok(!/^16:00/m.test(state.snapshot.visibleText), "the last slot's row is clipped, not on screen");
    const r = await executeAction(s, { scroll: { index: panel.index, down: true, pages: 5 } }, { base, state });
    assert.ok(r.ok, r.error);
    const after = await s.captureState({ screenshot: false });
    assert.match(after.snapshot.visibleText, /^16:00/m, "scrolled: the last slot is on screen");
    const moved = after.snapshot.elements.find((e) => e.attributes.id === "schedule-panel");
    assert.match(moved?.attributes.scroll ?? "", /^\d+px above, 0px below$/);
  });
});
