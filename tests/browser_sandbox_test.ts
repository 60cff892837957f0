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
