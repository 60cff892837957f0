/**
 * Test pages written the way public benchmark pages are (tests/perception_real_pages_test.ts serves them over
 * HTTP, so lib/dom's listener record runs before their scripts): jQuery-style handlers through a tiny inline `$`,
 * spans and divs bound with addEventListener, delegated handlers with `cursor: pointer`, anchors without href,
 * aria-hidden toolbars, an autocomplete list, slider handles without ARIA, side-by-side columns, a covered centre,
 * an open shadow root and a same-origin iframe. Every handler writes what it did to `#log`.
 */

/** A tiny jQuery look-alike: `$(sel).on(type, [childSel,] fn)`, `$(sel).text(t)`; handlers bound with addEventListener. */
const DOLLAR = `
function $(sel) {
  const els = typeof sel === "string" ? Array.from(document.querySelectorAll(sel)) : [sel];
  return {
    on(type, a, b) {
      const child = b ? a : null, fn = b || a;
      for (const el of els) {
        el.addEventListener(type, function (e) {
          if (!child) return fn.call(el, e);
          const t = e.target.closest && e.target.closest(child);
          if (t && (el === document || el.contains(t))) fn.call(t, e);
        });
      }
      return this;
    },
    text(t) { for (const el of els) el.textContent = t; return this; },
  };
}
function log(msg) { document.getElementById("log").textContent = msg; }
`;

const page = (title: string, body: string, style = "", script = "") =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>
body { font: 14px Arial, sans-serif; margin: 8px; } #log { color: #060; min-height: 18px; }
${style}</style></head><body><p id="log"></p>${body}<script>${DOLLAR}${script}</script></body></html>`;

/** A webmail look-alike: controls bound by script only, plus near misses that must stay unindexed. */
export const MAIL = page(
  "Inbox",
  `<div id="app">
<div class="toolbar"><span class="link" id="refresh">Refresh</span> <span class="link" id="compose">Compose</span>
  <span class="plain">Signed in as jane</span> <a id="no-handler">Help (no handler)</a></div>
<div id="inbox">
  <div class="email-row" data-id="1"><span class="from">Alice Martin</span><span class="subject">Lunch on Friday?</span></div>
  <div class="email-row" data-id="2"><span class="from">Bob Stone</span><span class="subject">Quarterly report</span></div>
  <div class="email-row" data-id="3"><span class="from">Carol White</span><span class="subject">Flight details</span></div>
</div>
<ul id="sortable"><li class="ui-state-default">Item 1</li><li class="ui-state-default">Item 2</li>
  <li class="ui-state-default">Item 3</li></ul>
<div class="ui-datepicker-header"><a class="ui-datepicker-prev" title="Prev"><span>Prev</span></a>
  <span class="ui-datepicker-title">January 2011</span><a class="ui-datepicker-next" title="Next"><span>Next</span></a></div>
<p class="contacts"><a class="contact" data-email="bob@example.com">Bob Smith</a>,
  <a class="contact" data-email="eve@example.com">Eve Adams</a></p>
<div class="icon-button" id="stars" title="Star all"><span class="star"></span><span class="star"></span><span class="star"></span></div>
<form id="reply"><input id="subject" name="subject" placeholder="Subject"><div class="btn-submit" id="submit">Submit</div></form>
</div>`,
  `#app { min-height: 700px; } .link { color: #06c; text-decoration: underline; margin-right: 12px; }
.email-row { cursor: pointer; display: flex; padding: 6px; border-bottom: 1px solid #ddd; width: 500px; }
.email-row .from { width: 160px; font-weight: bold; }
#sortable { list-style: none; padding: 0; width: 200px; } #sortable li { border: 1px solid #ccc; margin: 2px; padding: 4px; }
.ui-datepicker-header { width: 260px; display: flex; justify-content: space-between; background: #eee; padding: 4px; }
.icon-button { display: inline-flex; gap: 2px; } .star { width: 12px; height: 12px; background: #fc0; }
.btn-submit { display: inline-block; background: #28a; color: #fff; padding: 6px 14px; margin-left: 8px; }`,
  `let month = 0;
const MONTHS = ["January 2011", "February 2011", "March 2011"];
$(".link").on("click", function () { log("link " + this.id); });
$(document).on("click", ".email-row", function () { log("open email " + this.dataset.id); });
$("#sortable li").on("mousedown", function () { log("grab " + this.textContent); });
$(".ui-datepicker-prev").on("click", () => { month = Math.max(0, month - 1); $(".ui-datepicker-title").text(MONTHS[month]); log("prev"); });
$(".ui-datepicker-next").on("click", () => { month = Math.min(2, month + 1); $(".ui-datepicker-title").text(MONTHS[month]); log("next"); });
for (const a of document.querySelectorAll(".contact")) a.onclick = () => log("mail " + a.dataset.email);
$("#stars").on("click", () => log("starred"));
$("#submit").on("click", () => log("submitted " + document.getElementById("subject").value));
$("#app").on("click", () => {}); // a delegation root: too big to be one control`,
);

/** aria-hidden around visible controls (indexed), an invisible and an inert one (not), a covered centre. */
export const ARIA = page(
  "Toolbar",
  `<div aria-hidden="true" class="toolbar"><button id="save">Save draft</button>
  <span class="link" id="archive">Archive</span></div>
<div aria-hidden="true"><button id="ghost" style="visibility: hidden">Ghost</button></div>
<div inert><button id="inert-button">Inert button</button></div>
<div id="wrap"><button id="wide">Partly covered button</button><div class="badge">NEW</div></div>
<div id="wrap2"><button id="buried">Buried</button><div class="sheet"></div></div>`,
  `.link { color: #06c; margin-left: 12px; } #wrap, #wrap2 { position: relative; margin-top: 20px; }
#wide { width: 320px; height: 60px; } .badge { position: absolute; left: 110px; top: 10px; width: 100px;
height: 40px; background: #c00; color: #fff; } .sheet { position: absolute; inset: -4px; background: #fff; }`,
  `$("#save").on("click", () => log("saved"));
$("#archive").on("click", () => log("archived"));
$("#ghost").on("click", () => log("ghost"));
$("#inert-button").on("click", () => log("inert"));
$("#wide").on("click", () => log("wide clicked"));`,
);

/** An autocomplete whose `<ul>` is bound by delegation, and a role=menu of plain divs. */
export const AUTOCOMPLETE = page(
  "Search",
  `<label for="country">Country</label> <input id="country" autocomplete="off">
<ul id="suggestions" class="ui-autocomplete"><li>Canada</li><li>Cameroon</li><li>Cambodia</li>
  <li>Central African Republic</li></ul>
<div role="menu" id="menu"><div class="item">Copy</div><div class="item">Paste</div><div class="item">Delete</div></div>`,
  `#suggestions { list-style: none; padding: 0; margin: 0; width: 240px; border: 1px solid #999; }
#suggestions li { padding: 4px; } #menu { width: 160px; border: 1px solid #999; margin-top: 12px; }
#menu .item { padding: 4px; }`,
  `$("#suggestions").on("click", "li", function () {
  document.getElementById("country").value = this.textContent;
  log("picked " + this.textContent);
});
$("#menu").on("click", ".item", function () { log("menu " + this.textContent); });`,
);

/** Sliders: jQuery UI handles (no ARIA), one with an input beside its track, an ARIA slider, a range input. */
export const SLIDERS = page(
  "Sliders",
  `<p>Price</p><div id="price" class="ui-slider"><span class="ui-slider-handle" id="price-handle" tabindex="0"></span></div>
<p>Volume</p><div id="volume-box"><div id="volume" class="ui-slider"><span class="ui-slider-handle" id="volume-handle"
  tabindex="0"></span></div><input type="hidden" id="volume-value" value="20"></div>
<div role="slider" id="rating" tabindex="0" aria-valuenow="7" aria-valuemin="0" aria-valuemax="10">Rating</div>
<input type="range" id="range" value="30">`,
  `.ui-slider { position: relative; width: 300px; height: 8px; background: #ccc; margin: 12px; }
.ui-slider-handle { position: absolute; top: -5px; width: 14px; height: 18px; margin-left: -7px; background: #333; }
#price-handle { left: 40%; } #volume-handle { left: 20%; } #rating { width: 120px; }`,
  `$(".ui-slider-handle").on("mousedown", function () { log("grab " + this.id); });`,
);

/** Side-by-side columns, a value with edge and inner whitespace, and a field to retype it into. */
export const COLUMNS = page(
  "Columns",
  `<div class="flex"><div class="left">Episodes done: 0</div><div class="right">Central African Republic</div></div>
<div class="floats"><div class="float">Right first</div><div class="rest">Left second</div></div>
<input id="code" value="  AB  12 "> <input id="retype" placeholder="Retype the code">
<button id="check">Check</button>`,
  `.flex { display: flex; width: 600px; } .left { width: 300px; text-align: right; } .right { width: 300px; }
.floats { width: 600px; overflow: hidden; } .float { float: right; width: 280px; } .rest { width: 300px; }`,
  `$("#check").on("click", () => log(document.getElementById("retype").value === document.getElementById("code").value
  ? "same" : "different: [" + document.getElementById("retype").value + "]"));`,
);

/** A widget in an open shadow root, with text, a button and a span bound by script. */
export const SHADOW = page(
  "Shadow",
  `<h2>Account</h2><div id="host"></div>`,
  `#host { display: block; margin: 20px; }`,
  `const root = document.getElementById("host").attachShadow({ mode: "open" });
root.innerHTML = '<style>.link{color:#06c}</style><p>Inside the shadow widget</p>' +
  '<button id="shadow-button">Shadow button</button> <span class="link" id="shadow-link">Shadow link</span>';
root.getElementById("shadow-button").addEventListener("click", () => log("shadow button"));
root.getElementById("shadow-link").addEventListener("click", () => log("shadow link"));`,
);

/** A payment widget in a same-origin iframe placed away from the top-left corner. */
export const FRAME = page(
  "Payment",
  `<h2>Checkout</h2><iframe id="pay-frame" src="/frame-inner" title="Payment"></iframe>`,
  `#pay-frame { position: absolute; left: 200px; top: 150px; width: 420px; height: 220px; border: 3px solid #333; }`,
);

/** The iframe's document: its own log, a card field and a div acting as Pay. */
export const FRAME_INNER = page(
  "Payment widget",
  `<p>Card details</p><input id="card" placeholder="Card number"> <div id="pay" class="pay">Pay now</div>`,
  `.pay { display: inline-block; background: #282; color: #fff; padding: 6px 12px; margin-top: 20px; }`,
  `$("#pay").on("click", () => log("paid " + document.getElementById("card").value));`,
);

/** Listener bookkeeping: removed, duplicate and non-click listeners, and what the page can see of the record. */
export const LISTENERS = page(
  "Listeners",
  `<span id="kept">Kept</span> <span id="removed">Removed</span> <span id="twice">Twice</span>
<span id="hover-only">Hover only</span> <span id="captured">Captured</span> <b id="by-property">By property</b>`,
  "span, b { margin-right: 12px; }",
  `const f = () => log("handled");
addEventListener("click", () => {}); // unbound, as scripts call it on the global: must still work
const el = (id) => document.getElementById(id);
el("kept").addEventListener("click", f);
el("removed").addEventListener("click", f);
el("removed").removeEventListener("click", f);
el("twice").addEventListener("mousedown", f);
el("twice").addEventListener("mousedown", f);
el("twice").removeEventListener("mousedown", f);
el("hover-only").addEventListener("mouseover", f);
el("captured").addEventListener("pointerdown", f, { capture: true });
el("captured").removeEventListener("pointerdown", f); // not the capture listener: it stays
el("by-property").onmousedown = () => log("by property");
window.seen = {
  globals: Object.keys(window).filter((k) => k.startsWith("__webmix")),
  source: EventTarget.prototype.addEventListener.toString(),
  name: EventTarget.prototype.removeEventListener.name,
  length: EventTarget.prototype.addEventListener.length,
};`,
);

/**
 * Icon-only controls with no text, aria-label, title, alt or placeholder of their own: named by a class token, an
 * ancestor's title or aria-label, an image's file name (img src, CSS background-image, SVG `<use>` href) or
 * aria-labelledby; and near misses that stay nameless (utility and hash-like classes, an ancestor whose title is
 * shared by two controls). Every control logs its data-act.
 */
export const ICONS = page(
  "Icons",
  `<svg style="display: none"><symbol id="icon-more" viewBox="0 0 16 16"><circle cx="8" cy="8" r="2"/></symbol></svg>
<div class="toolbar">
<span class="btn icon star" data-act="star"></span>
<i class="fa fa-trash" data-act="trash"></i>
<span class="action" title="Reply to sender"><span class="ico" data-act="reply"></span></span>
<div class="wrap" aria-label="Like this post"><b class="i" data-act="like"></b></div>
<span class="icon-btn" data-act="img"><img src="/icons/star-filled.svg"></span>
<span class="icon" data-act="bg" style="background-image: url('/img/retweet.png')"></span>
<span class="svg-wrap" data-act="use"><svg width="16" height="16"><use href="#icon-more"></use></svg></span>
<button class="btn" data-act="sprite"><svg width="16" height="16"><use href="/sprite.svg#trash-can"></use></svg></button>
<span class="swatch swatch-red" data-act="red"></span>
<span class="x" aria-labelledby="del-label" data-act="labelled"></span><span id="del-label">Delete message</span>
<span class="css-1q2w3e p-2 flex" data-act="utility"></span>
<div class="pair" title="Message actions"><span class="js-a" data-act="a"></span><span class="js-b" data-act="b"></span></div>
</div>`,
  `.toolbar > *, .toolbar span, .toolbar b { display: inline-block; min-width: 16px; height: 16px; margin: 4px;
  background-color: #ccc; vertical-align: middle; } .toolbar img { width: 16px; height: 16px; }
.toolbar .pair { display: inline-block; width: auto; background: none; }`,
  `for (const el of document.querySelectorAll("[data-act]")) el.addEventListener("click", () => log(el.dataset.act));`,
);

/** A 300px-high panel scrolling 40 lines of 30px, each with a button, a fixed button inside it, text after it. */
export const SCROLL_BOX = page(
  "Scroll box",
  `<h2>Messages</h2>
<div id="panel">${
    Array.from({ length: 40 }, (_, i) => `<div class="line">Line ${i + 1} <button>Open ${i + 1}</button></div>`)
      .join("")
  }<button id="fab">Help</button></div>
<p>After the panel</p>`,
  `#panel { height: 300px; width: 400px; overflow-y: auto; border: 1px solid #999; }
.line { height: 30px; box-sizing: border-box; margin: 0; } h2 { margin: 0 0 8px; }
#fab { position: fixed; right: 20px; bottom: 20px; }`,
  `for (const b of document.querySelectorAll("#panel button")) b.addEventListener("click", () => log(b.textContent));`,
);

/** A 2,400-character textarea (60 lines of 40) and a 1,200-character input, filled when the page loads. */
export const LONG_VALUES = page(
  "Long values",
  `<textarea id="terms" rows="8" cols="60"></textarea>
<input id="code" size="60">`,
  "",
  `document.getElementById("terms").value = Array.from({ length: 60 },
  (_, i) => ("Clause " + String(i + 1).padStart(2, "0") + ": the tenant keeps it tidy.").padEnd(39, ".") + "\\n").join("");
document.getElementById("code").value = "ABCDEFGHIJ".repeat(120);`,
);

/** Controls whose only handler is a mouseup or pointerup one (pie menus, radial pickers); a hover-only near miss. */
export const UP_LISTENERS = page(
  "Pie menu",
  `<div id="pie" class="pie">Pie menu</div> <div id="wheel" class="pie">Radial</div>
<div id="ptr-up" class="pie">Pointer up</div> <div id="hover" class="pie">Hover only</div>`,
  ".pie { display: inline-block; padding: 10px; margin: 6px; background: #eee; }",
  `document.getElementById("pie").addEventListener("mouseup", () => log("pie"));
document.getElementById("wheel").onpointerup = () => log("wheel");
document.getElementById("ptr-up").addEventListener("pointerup", () => log("ptr-up"));
document.getElementById("hover").addEventListener("mouseover", () => log("hover"));`,
);

/**
 * A popup over a button but for a 6px sliver at its right (listed), one leaving a 2px sliver (not), and an
 * autocomplete whose `<ul role=listbox tabindex=0>` holds options, and a focusable `<ul>` bound by delegation:
 * their items are indexed, the lists are not.
 */
export const COVERED = page(
  "Covered",
  `<div class="wrap"><button id="sliver">Sliver button</button><div class="popup" id="popup">Popup
  <button id="close">Close popup</button></div></div>
<div class="wrap"><button id="thin">Thin sliver</button><div class="popup thin">Other popup</div></div>
<label for="city">City</label> <input id="city" role="combobox" aria-expanded="true" aria-controls="cities">
<ul id="cities" role="listbox" tabindex="0"><li role="option">Paris</li><li role="option">Lyon</li>
  <li role="option">Nice</li></ul>
<ul id="tags" tabindex="0"><li>Red</li><li>Green</li><li>Blue</li></ul>
<ul id="streets" role="listbox" tabindex="0" class="combo-list">${
    Array.from({ length: 12 }, (_, i) => `<li role="option">Street ${i + 1}</li>`).join("")
  }</ul>`,
  `.wrap { position: relative; height: 60px; margin: 10px 0; } .wrap button:first-child { width: 300px; height: 40px; }
.popup { position: absolute; left: 0; top: -6px; width: 294px; height: 56px; background: #fff; border: 1px solid #333;
  box-sizing: border-box; } .popup.thin { width: 298px; }
#streets { max-height: 60px; overflow-y: auto; }
ul { list-style: none; padding: 0; margin: 4px 0; width: 200px; border: 1px solid #999; } li { padding: 3px; }`,
  `$("#close").on("click", () => log("closed"));
$("#sliver").on("click", () => log("sliver"));
$("#cities").on("click", "li", function () { log("city " + this.textContent); });
$("#tags").on("click", "li", function () { log("tag " + this.textContent); });
$("#streets").on("click", "li", function () { log("street " + this.textContent); });`,
);

/** Every page by path, for a Deno.serve handler. */
/**
 * A menu whose dishes' diets exist only as images (`<img alt=vegan title=vegan>`), one with an empty alt (decorative),
 * and an image link whose alt is its name.
 */
export const DIETS = page(
  "Menu",
  `<h2>Lunch menu</h2><ul class="menu">
<li>Lentil soup <img src="/i/leaf.svg" alt="vegan" title="vegan" width="14" height="14"></li>
<li>Chicken wrap <img src="/i/wheat.svg" alt="contains gluten" width="14" height="14"></li>
<li>Rice bowl <img src="/i/leaf.svg" title="vegan" width="14" height="14"> <img src="/i/dot.svg" alt="" width="6" height="6"></li>
</ul><a href="#soup" id="soup-link"><img src="/i/soup.jpg" alt="Soup of the day" width="40" height="20"></a>`,
);

/**
 * Colour pickers: Quill's (`<span class="ql-picker-item" data-value="#ffff00">`, one class on every swatch) and a
 * palette of empty divs that only a background colour tells apart; a grey icon row (one background) stays nameless.
 */
export const SWATCHES = page(
  "Colours",
  `<span class="ql-picker-options">${
    ["#e60000", "#ff9900", "#ffff00", "#008a00", "#0066cc"].map((c) =>
      `<span tabindex="0" role="button" class="ql-picker-item" data-value="${c}" style="background-color: ${c}"></span>`
    ).join("")
  }</span>
<div class="palette">${
    ["rgb(255, 192, 203)", "rgb(128, 0, 128)", "rgb(0, 0, 0)", "rgb(255, 255, 255)", "rgb(128, 128, 128)"].map((c) =>
      `<div class="cell" style="background: ${c}"></div>`
    ).join("")
  }</div>
<div class="greys"><span class="g"></span><span class="g"></span></div>`,
  `.ql-picker-item, .cell, .g { display: inline-block; width: 16px; height: 16px; margin: 2px; cursor: pointer; }
.greys .g { background: #ccc; }`,
  `for (const el of document.querySelectorAll(".ql-picker-item")) el.addEventListener("click", () => log(el.dataset.value));
for (const el of document.querySelectorAll(".cell, .g")) el.addEventListener("click", () => log(el.style.background || "grey"));`,
);

export const REAL_PAGES: Record<string, string> = {
  "/diets": DIETS,
  "/swatches": SWATCHES,
  "/mail": MAIL,
  "/aria": ARIA,
  "/autocomplete": AUTOCOMPLETE,
  "/sliders": SLIDERS,
  "/columns": COLUMNS,
  "/shadow": SHADOW,
  "/frame": FRAME,
  "/frame-inner": FRAME_INNER,
  "/listeners": LISTENERS,
  "/icons": ICONS,
  "/scroll-box": SCROLL_BOX,
  "/long-values": LONG_VALUES,
  "/up-listeners": UP_LISTENERS,
  "/covered": COVERED,
};
