/**
 * Pages for the action tests (tests/actions_*_test.ts), written the way public pages are: jQuery-style handlers
 * bound with a small `$` helper, no roles or ids added for our sake beyond what such pages carry. Each page records
 * what its handlers received in `window.record` (a list of `[kind, detail]`), which the tests read back.
 */

const doc = (title: string, body: string, style = "", script = "") =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>` +
  `<style>body{font:14px sans-serif;margin:8px}${style}</style></head><body>${body}` +
  `<script>${HELPER}\n${script}</script></body></html>`;

/** A jQuery-like `$` (on, show, hide, val, text, css) and the page's record. */
const HELPER = `
window.record = [];
function log(kind, detail) { window.record.push([kind, detail]); }
function $(sel) {
  var els = typeof sel === "string" ? Array.prototype.slice.call(document.querySelectorAll(sel)) : [sel];
  var api = {
    length: els.length,
    0: els[0],
    on: function (events, fn) {
      els.forEach(function (el) { events.split(" ").forEach(function (ev) { el.addEventListener(ev, fn); }); });
      return api;
    },
    show: function () { els.forEach(function (el) { el.style.display = "block"; }); return api; },
    hide: function () { els.forEach(function (el) { el.style.display = "none"; }); return api; },
    val: function () { return els[0].value; },
    text: function (t) { els.forEach(function (el) { el.textContent = t; }); return api; },
    css: function (k, v) { els.forEach(function (el) { el.style[k] = v; }); return api; },
    focus: function () { els[0].focus(); return api; }
  };
  return api;
}`;

/** A booking form with a date, a time and a number field whose change handlers log what they got. */
export const FIELDS = doc(
  "Book a table",
  `<form id="book" onsubmit="return false">
<p><label for="day">Day</label> <input type="date" id="day" name="day"></p>
<p><label for="at">Time</label> <input type="time" id="at" name="at"></p>
<p><label for="guests">Guests</label> <input type="number" id="guests" name="guests" min="1" max="20"></p>
<p><label for="code">Voucher</label> <input type="text" id="code" name="code" maxlength="6"></p>
</form>`,
  "",
  `$("#day").on("change", function () { log("day", this.value); });
$("#at").on("change", function () { log("at", this.value); });
$("#guests").on("input", function () { log("guests", this.value); });`,
);

/** A newsletter popup that a focus handler opens over the email field, taking the focus. */
export const FOCUS_STEAL = doc(
  "Sign up",
  `<p><label for="email">Email</label> <input type="text" id="email" name="email"></p>
<p><label for="city">City</label> <input type="text" id="city" name="city"></p>
<div class="modal" id="nl"><p>Subscribe to our newsletter!</p><button class="close-btn">No thanks</button></div>`,
  ".modal{display:none;position:fixed;top:30%;left:30%;width:300px;padding:20px;background:#fff;border:1px solid #333}",
  `var shown = false;
$("#email").on("focus", function () {
  if (shown) return;
  shown = true;
  $("#nl").show();
  $("#nl .close-btn").focus();
});
$("#nl .close-btn").on("click", function () { $("#nl").hide(); log("popup", "closed"); });
$("#email").on("input", function () { log("email", this.value); });`,
);

/**
 * A search box whose suggestion menu drops over the Search button, and a Subscribe button half under a sticky
 * banner.
 */
export const OVERLAY = doc(
  "Search",
  `<div class="search"><input type="text" id="q" name="q" autocomplete="off">
<ul class="suggest" id="suggest"><li>Paris</li><li>Parma</li><li>Partridge</li></ul>
<br><button type="button" id="go">Search</button></div>
<div class="promo"><button type="button" id="sub">Subscribe to deals</button><div class="banner">Sale ends soon</div></div>`,
  `.search{position:relative;width:320px}
.suggest{display:none;position:absolute;top:22px;left:0;width:300px;margin:0;padding:0;list-style:none;background:#fff;border:1px solid #999;z-index:5}
.suggest li{padding:6px;cursor:pointer}
.promo{position:relative;margin-top:120px;width:400px}
#sub{width:300px;height:40px}
.banner{position:absolute;left:0;top:0;width:200px;height:40px;background:#fc0}`,
  `$("#q").on("input", function () { if (this.value) $("#suggest").show(); else $("#suggest").hide(); });
$("#suggest li").on("click", function () { $("#q")[0].value = this.textContent; $("#suggest").hide(); log("pick", this.textContent); });
$("#go").on("click", function () { log("search", $("#q").val()); });
$("#sub").on("click", function (e) { log("subscribe", Math.round(e.clientX) + "," + Math.round(e.clientY)); });`,
);

/** A navigation bar whose submenu opens on mouseenter and closes on mouseleave. */
export const HOVER_MENU = doc(
  "Store",
  `<ul class="nav"><li class="menu"><a href="#" class="top">Products</a>
<ul class="sub"><li><a href="#lamps" class="item">Lamps</a></li><li><a href="#desks" class="item">Desks</a></li></ul>
</li><li class="plain"><a href="#about">About</a></li></ul>
<p id="where">home</p>`,
  `.nav{list-style:none;margin:0;padding:0;display:flex;gap:20px}
.menu{position:relative;padding:8px}.plain{padding:8px}
.sub{display:none;position:absolute;top:30px;left:0;list-style:none;padding:6px;margin:0;background:#eee;width:120px}
.sub li{padding:4px}`,
  `$(".menu").on("mouseenter", function () { $(".sub").show(); log("menu", "open"); });
$(".menu").on("mouseleave", function () { $(".sub").hide(); log("menu", "closed"); });
$(".item").on("click", function (e) { e.preventDefault(); $("#where").text(this.textContent); log("go", this.textContent); });`,
);

/** A terminal: a focusable screen that reads keydown events (no input element) and runs a line on Enter. */
export const TERMINAL = doc(
  "Web shell",
  `<div class="term" id="term" tabindex="0"><div id="out"></div><span class="prompt">$ </span><span id="line"></span></div>`,
  `.term{background:#111;color:#0f0;font-family:monospace;width:600px;height:200px;padding:8px}`,
  `var line = "";
$("#term").on("keydown", function (e) {
  if (e.key === "Enter") { log("run", line); $("#out")[0].insertAdjacentText("beforeend", "$ " + line + "\\n"); line = ""; }
  else if (e.key === "Backspace") line = line.slice(0, -1);
  else if (e.key.length === 1 && !e.ctrlKey) line += e.key;
  $("#line").text(line);
  e.preventDefault();
});`,
);

/** A chat log: a scrollable box of plain paragraphs (nothing in it is a control), below a tall page. */
export const SCROLL_BOX = doc(
  "Chat",
  `<h1>Support chat</h1><div class="log" id="log">${
    Array.from({ length: 60 }, (_, i) => `<p>message ${i + 1}</p>`).join("")
  }</div><div style="height:2000px"></div>`,
  `.log{overflow-y:auto;height:200px;width:400px;border:1px solid #999}`,
  `$("#log").on("scroll", function () { log("log", this.scrollTop); });`,
);

/** A signature pad: a canvas that records the pointer's path while the button is down. */
export const CANVAS = doc(
  "Sign here",
  `<p>Sign below</p><canvas id="pad" width="500" height="300"></canvas>`,
  `#pad{border:1px solid #333;display:block}`,
  `var down = false, ctx = $("#pad")[0].getContext("2d");
function at(e) { var r = $("#pad")[0].getBoundingClientRect(); return [Math.round(e.clientX - r.left), Math.round(e.clientY - r.top)]; }
$("#pad").on("mousedown", function (e) { down = true; var p = at(e); ctx.beginPath(); ctx.moveTo(p[0], p[1]); log("down", p); });
$("#pad").on("mousemove", function (e) { if (!down) return; var p = at(e); ctx.lineTo(p[0], p[1]); ctx.stroke(); log("move", p); });
$(document).on("mouseup", function (e) { if (!down) return; down = false; log("up", at(e)); });`,
);

/**
 * A checkout whose payment widget is a same-origin iframe (offset from the page's corner) and whose rating widget lives
 * in an open shadow root; both report to the page's record.
 */
export const WIDGETS = doc(
  "Checkout",
  `<h1>Checkout</h1><div class="pay"><iframe id="payframe" src="/pay-widget" width="420" height="220"></iframe></div>
<div id="rating"></div>`,
  `.pay{position:absolute;left:300px;top:150px;border:0}#payframe{border:6px solid #ccc}
#rating{position:absolute;left:40px;top:420px}`,
  `var host = $("#rating")[0], root = host.attachShadow({ mode: "open" });
root.innerHTML = '<style>button{margin:4px;padding:6px 12px}</style><span>Rate us:</span>' +
  '<button class="star" data-n="1">1 star</button><button class="star" data-n="5">5 stars</button>';
Array.prototype.forEach.call(root.querySelectorAll(".star"), function (b) {
  $(b).on("click", function (e) { log("rate", b.getAttribute("data-n") + "@" + Math.round(e.clientX) + "," + Math.round(e.clientY)); });
});`,
);

/** The payment widget WIDGETS embeds: a card field and a Pay button that log to the parent page's record. */
export const PAY_WIDGET = doc(
  "Pay",
  `<p><label for="card">Card</label> <input id="card" name="card" type="text"></p>
<p><label for="exp">Expires</label> <input id="exp" name="exp" type="month"></p>
<button type="button" id="pay">Pay now</button>`,
  "",
  `$("#pay").on("click", function (e) {
  parent.log("pay", $("#card").val() + "@" + Math.round(e.clientX) + "," + Math.round(e.clientY));
});
$("#exp").on("change", function () { parent.log("exp", this.value); });`,
);

/** Every page by its path. */
export const ACTION_PAGES: Readonly<Record<string, string>> = {
  "/fields": FIELDS,
  "/focus-steal": FOCUS_STEAL,
  "/overlay": OVERLAY,
  "/hover-menu": HOVER_MENU,
  "/terminal": TERMINAL,
  "/scroll-box": SCROLL_BOX,
  "/canvas": CANVAS,
  "/widgets": WIDGETS,
  "/pay-widget": PAY_WIDGET,
};
