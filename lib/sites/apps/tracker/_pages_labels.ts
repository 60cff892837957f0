/**
 * Label colours: each issue label with its colour, changed with a Quill-style colour picker (a button opens a
 * palette of swatches, `<span class="ql-picker-item" data-value="#ffff00">`, the same class on each and no words:
 * only the colour tells them apart) or a hex field. A swatch click or the field's Save posts the colour.
 */
import type { Hono } from "hono";
import { html, raw } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { BASE, type Ctx, EXTRA_CSS, notFound, page, redirectWith } from "./_views.ts";

/** Quill's colour palette, row by row. */
export const PALETTE = [
  "#000000",
  "#e60000",
  "#ff9900",
  "#ffff00",
  "#008a00",
  "#0066cc",
  "#9933ff",
  "#ffffff",
  "#facccc",
  "#ffebcc",
  "#ffffcc",
  "#cce8cc",
  "#cce0f5",
  "#ebd6ff",
  "#bbbbbb",
  "#f06666",
  "#ffc266",
  "#ffff66",
  "#66b966",
  "#66a3e0",
  "#c285ff",
]; // deno-fmt-ignore

interface Label {
  id: number;
  name: string;
  color: string;
}

const HEX = /^#[0-9a-f]{6}$/;

/** Opens and closes a label's palette; a swatch click sets the hidden field and posts its form. */
const PICKER_SCRIPT = raw(`<script>
document.querySelectorAll(".ql-picker-label").forEach(function (btn) {
  btn.addEventListener("click", function () {
    var opts = btn.nextElementSibling;
    var open = opts.hidden;
    document.querySelectorAll(".ql-picker-options").forEach(function (o) { o.hidden = true; });
    opts.hidden = !open;
    btn.setAttribute("aria-expanded", String(open));
  });
});
document.querySelectorAll(".ql-picker-item").forEach(function (item) {
  item.addEventListener("click", function () {
    var form = item.closest("form");
    form.querySelector("input[name=color]").value = item.getAttribute("data-value");
    form.submit();
  });
});
</script>`);

function labelRow(l: Label) {
  return html`
    <tr id="label-${l.name}">
      <td><span class="badge label">${l.name}</span></td>
      <td><span class="chip" style="background:${l.color}"></span> <code>${l.color}</code></td>
      <td>
        <form method="post" action="${BASE}/labels/${l.id}" class="ql-color ql-picker">
          <input type="hidden" name="color" value="${l.color}">
          <button type="button" class="ql-picker-label" aria-expanded="false" id="pick-${l.name}">Colour</button>
          <span class="ql-picker-options" hidden>${PALETTE.map((c) =>
            html`
              <span tabindex="0" role="button" class="ql-picker-item" data-value="${c}"
                style="background-color:${c}"></span>
            `
          )}</span>
        </form>
      </td>
      <td>
        <form method="post" action="${BASE}/labels/${l.id}" class="hex">
          <input name="color" id="hex-${l.name}" size="8" placeholder="#rrggbb" aria-label="Hex colour of ${l.name}">
          <button id="save-${l.name}">Save</button>
        </form>
      </td>
    </tr>
  `;
}

function labelsPage(c: Ctx) {
  const labels = c.get("db").all<Label>("SELECT id, name, color FROM labels ORDER BY name");
  return page(c, {
    title: "Labels",
    crumbs: [{ href: `${BASE}/labels`, label: "Labels" }],
    body: html`
      ${EXTRA_CSS}
            <style>
              .chip{display:inline-block;width:14px;height:14px;border-radius:3px;border:1px solid #cbd5e1;vertical-align:middle}
              .ql-picker{position:relative}.ql-picker-options{position:absolute;z-index:5;top:30px;left:0;width:168px;padding:4px;
                background:#fff;border:1px solid #cbd5e1;box-shadow:0 2px 8px rgba(0,0,0,.2)}
              .ql-picker-options[hidden]{display:none}
              .ql-picker-item{display:inline-block;width:16px;height:16px;margin:2px;border:1px solid transparent;cursor:pointer}
              .ql-picker-item:hover{border-color:#000}
            </style>
            <h1>Labels</h1>
            <p class="muted">The colour each label shows in lists and on the board.</p>
            <table id="labels"><tr><th>Label</th><th>Colour</th><th>Pick</th><th>Hex</th></tr>${labels.map(
              labelRow,
            )}</table>
            ${PICKER_SCRIPT}
    `,
  });
}

async function setColour(c: Ctx) {
  const db = c.get("db");
  const label = db.byId<Label>("labels", Number(c.req.param("id")));
  if (!label) return notFound(c, `Label ${c.req.param("id")}`);
  const color = String((await c.req.parseBody()).color ?? "").trim().toLowerCase();
  if (!HEX.test(color)) return redirectWith(c, `${BASE}/labels`, `"${color}" is not a colour like #ffcc00`);
  if (color !== label.color) db.update("labels", label.id, { color });
  return redirectWith(c, `${BASE}/labels`, `Label ${label.name} is now ${color}`);
}

/** Mounts the labels page and its colour posts. */
export function labelRoutes(app: Hono<SandboxEnv>): void {
  app.get("/labels", labelsPage);
  app.post("/labels/:id", setColour);
}
