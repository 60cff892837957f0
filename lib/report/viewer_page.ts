/**
 * viewer.html's text: one self-contained page (inline CSS and script, no external resource) that opens from file://.
 * The list is one JSON block; each episode's detail is a JSON block of its own, parsed only when opened. Screenshots
 * stay files beside the page, linked by relative path (`<episode>/step_3.png`).
 */
import type { EpisodeDetail } from "./viewer_data.ts";
import { viewerApp, type ViewerData } from "./viewer_client.ts";

/**
 * JSON for a `<script type="application/json">` block: every `<` is written `\u003c`, so no value can close the
 * block (`</script>`) or open an HTML comment inside it.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}

const CSS = `
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, sans-serif; color: #1d2330; display: flex; flex-direction: column;
  height: 100vh; }
header { padding: 6px 10px; background: #f1f3f7; border-bottom: 1px solid #d5d9e2; display: flex; gap: 8px;
  align-items: center; flex-wrap: wrap; }
header h1 { font-size: 15px; margin: 0 10px 0 0; }
header details { margin-left: auto; }
header details pre { position: absolute; right: 10px; z-index: 2; background: #fff; border: 1px solid #ccd;
  max-height: 60vh; overflow: auto; padding: 6px; }
#notes div { padding: 3px 10px; background: #fff7e0; border-bottom: 1px solid #ecd9a4; }
main { flex: 1; display: grid; grid-template-columns: minmax(360px, 38%) 1fr; min-height: 0; }
#list { overflow: auto; border-right: 1px solid #d5d9e2; }
#detail { overflow: auto; padding: 8px 16px 40px; }
table { border-collapse: collapse; width: 100%; }
td { padding: 3px 6px; border-bottom: 1px solid #eceef3; white-space: nowrap; }
td.name { white-space: normal; word-break: break-all; }
td.num { text-align: right; color: #556; }
tr { cursor: pointer; }
tr:hover { background: #f5f7fb; }
tr.open { background: #dfe8ff; }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 11px; color: #fff; background: #777; }
.badge.passed { background: #2a8a4a; } .badge.failed { background: #c0392b; } .badge.error { background: #8e44ad; }
.badge.grade_error { background: #d68910; } .badge.pending { background: #2874a6; }
.badge.reason { background: #eef0f5; color: #8a2a1f; border: 1px solid #d9b8b3; margin-left: 4px; }
h2 { font-size: 17px; margin: 6px 0 2px; } h3 { font-size: 14px; margin: 14px 0 4px; }
.meta { color: #556; }
.instruction { white-space: pre-wrap; background: #f7f8fb; padding: 6px 8px; border-left: 3px solid #8aa; }
.field { margin: 2px 0; white-space: pre-wrap; word-break: break-word; }
.field b, .list b { display: inline-block; min-width: 110px; color: #445; margin-right: 6px; }
.err { color: #b3261e; }
.list ul { margin: 2px 0 6px; padding-left: 22px; font: 12px/1.35 ui-monospace, monospace; }
.list li { word-break: break-all; }
pre { white-space: pre-wrap; word-break: break-word; font: 12px/1.35 ui-monospace, monospace; background: #f7f8fb;
  padding: 6px; margin: 4px 0; max-height: 480px; overflow: auto; }
.step { border-top: 1px solid #d5d9e2; padding: 6px 0 10px; }
.tag { font-size: 11px; font-weight: normal; background: #eef0f5; border-radius: 4px; padding: 0 5px; margin-left: 6px; }
.tag.gated { background: #fde3b5; }
.cols { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: 12px; }
.cols img { width: 100%; border: 1px solid #ccd; }
.noshot { color: #889; border: 1px dashed #ccd; padding: 20px; text-align: center; }
.url { color: #556; word-break: break-all; margin-bottom: 4px; }
.note { background: #fff7e0; }
.actions { padding-left: 20px; margin: 6px 0; }
.actions li.fail { background: #fdecea; }
.extracted { color: #556; white-space: pre-wrap; max-height: 120px; overflow: auto; }
summary { cursor: pointer; color: #2a4d9b; }
`;

const BODY = `<header>
<h1 id="title"></h1>
<select id="f-status"></select><select id="f-reason"></select><select id="f-family"></select><select id="f-site"></select><select id="f-arm"></select>
<input id="q" type="search" placeholder="search task, instruction, detail, answer">
<span id="shown"></span>
<details id="settings"><summary>run settings</summary></details>
</header>
<div id="notes"></div>
<main><div id="list"><table><tbody id="rows"></tbody></table></div>
<div id="detail"><p>Choose an episode.</p></div></main>`;

/** The page: the list data, one detail block per episode (in the list's order), and the script. */
export function renderViewer(data: ViewerData, details: EpisodeDetail[]): string {
  const blocks = details.map((d, i) => `<script type="application/json" id="ep-${i}">${scriptJson(d)}</script>`);
  const app = `(${viewerApp.toString()})();`.replaceAll("</", "<\\/");
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>viewer</title><style>${CSS}</style></head><body>
${BODY}
<script type="application/json" id="viewer-data">${scriptJson(data)}</script>
${blocks.join("\n")}
<script>${app}</script>
</body></html>
`;
}
