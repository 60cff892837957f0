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

/** A small square icon as a data URL (the pages load nothing else). */
const icon = (fill: string) =>
  `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='28' height='28'%3E` +
  `%3Crect width='28' height='28' rx='6' fill='%23${fill}'/%3E%3C/svg%3E`;

/**
 * A post's icon bar, rollover style: on mouseover a grey icon is replaced by its coloured one (another <img>) in
 * the page's next task, once it is drawn; the Save icon is a pair of <img>s of which mouseover shows the coloured
 * one and hides the grey one. The bar's delegated click handler runs the action of the <img> clicked, which only
 * the coloured icons carry (data-action).
 */
export const ICON_SWAP = doc(
  "Post",
  `<p>Nice photo of the harbour.</p>
<span class="icons"><img class="ico" src="${icon("bbb")}" alt="Like" data-hover="${icon("e33")}" data-for="like">` +
    `<img class="ico" src="${icon("bbb")}" alt="Share" data-hover="${icon("36c")}" data-for="share">` +
    `<span class="pair"><img class="off" src="${icon("bbb")}" alt="Save">` +
    `<img class="on" src="${icon("3a3")}" alt="Save" data-action="save"></span></span>`,
  `.icons img{cursor:pointer;margin:4px}.pair .on{display:none}.pair.hover .on{display:inline}.pair.hover .off{display:none}`,
  `$(".pair .off").on("mouseover", function () { this.parentNode.classList.add("hover"); });
$(".pair .on").on("mouseout", function () { this.parentNode.classList.remove("hover"); });
$(".icons").on("mouseover", function (e) {
  var img = e.target;
  if (!img.getAttribute("data-hover") || img.getAttribute("data-action")) return;
  setTimeout(function () {
    if (!img.isConnected) return;
    var on = img.cloneNode();
    on.src = img.getAttribute("data-hover");
    on.setAttribute("data-action", img.getAttribute("data-for"));
    img.replaceWith(on);
  }, 0);
});
$(".icons").on("click", function (e) {
  var action = e.target.getAttribute && e.target.getAttribute("data-action");
  log("click", action || e.target.localName);
});`,
);

/**
 * A product card whose "Add to cart" button the page's script renders anew when the mouse enters it (the button is
 * replaced by a clone that carries the click handler, in the next task: a framework hydrating on hover).
 */
export const HOVER_RENDER = doc(
  "Desk lamp",
  `<div class="card"><h2>Desk lamp</h2><p>$24.00</p><button type="button" class="add" data-sku="L-24">Add to cart</button></div>`,
  `.card{border:1px solid #ccc;padding:12px;width:240px}`,
  `function hydrate(btn) {
  setTimeout(function () {
    if (!btn.isConnected) return;
    var live = btn.cloneNode(true);
    live.classList.add("live");
    $(live).on("click", function () { log("cart", this.getAttribute("data-sku")); });
    btn.replaceWith(live);
  }, 0);
}
$(".add").on("mouseenter", function () { hydrate(this); });
$(document).on("click", function (e) { if (e.target.closest && !e.target.closest(".live")) log("missed", e.target.localName); });`,
);

/**
 * A product grid: hovering a tile shows a "Quick view" bar over the middle of its picture (CSS :hover); the
 * picture links to the product. An "Add to cart" button that turns into a quantity stepper when the mouse enters
 * it.
 */
export const HOVER_COVER = doc(
  "Shop",
  `<div class="tile"><a class="pic" href="#lamp">Desk lamp</a><button type="button" class="qv">Quick view</button></div>
<p><button type="button" class="buy">Add to cart</button></p>`,
  `.tile{position:relative;width:200px;height:200px;margin-bottom:20px}
.pic{display:block;width:200px;height:200px;background:#ddd}
.qv{display:none;position:absolute;left:0;top:80px;width:200px;height:40px}
.tile:hover .qv{display:block}
.stepper{display:inline-block;border:1px solid #999;padding:2px}.stepper span{display:inline-block;width:60px;text-align:center}`,
  `$(".pic").on("click", function (e) { e.preventDefault(); log("open", this.getAttribute("href")); });
$(".qv").on("click", function () { log("quick", "view"); });
$(".buy").on("mouseenter", function () {
  var btn = this;
  setTimeout(function () {
    if (!btn.isConnected) return;
    var s = document.createElement("div");
    s.className = "stepper";
    s.innerHTML = '<button type="button">-</button><span class="qty">1 in cart</span><button type="button">+</button>';
    btn.replaceWith(s);
  }, 0);
});
$(".buy").on("click", function () { log("buy", "clicked"); });`,
);

/**
 * Sortable lists whose new order comes from the pointer's side of the target item's midpoint, as sortable
 * libraries decide it: a vertical one driven by mouse events (decided on mouseup), a horizontal one driven by
 * pointer events (items swap while the pointer moves), and an HTML5 draggable one (decided in dragover). Each logs
 * its order after a drop.
 */
export const SORTABLE = doc(
  "Sortable lists",
  `<ul class="vlist" id="v"><li>V1</li><li>V2</li><li>V3</li><li>V4</li></ul>
<ul class="hlist" id="h"><li>H1</li><li>H2</li><li>H3</li><li>H4</li></ul>
<ul class="dlist" id="d"><li draggable="true">D1</li><li draggable="true">D2</li><li draggable="true">D3</li><li draggable="true">D4</li></ul>`,
  `ul{list-style:none;padding:0;margin:0 0 24px 0}
li{background:#eef;border:1px solid #99c;cursor:move;user-select:none;box-sizing:border-box}
.vlist li,.dlist li{width:220px;height:36px;margin:4px 0;padding:8px}
.hlist{display:flex;gap:6px}.hlist li{width:90px;height:40px;padding:10px}
.lifted{opacity:.6;pointer-events:none;position:relative;z-index:2}
.dragging{opacity:.4}`,
  `function order(list) { return Array.prototype.map.call(list.children, function (li) { return li.textContent; }).join(","); }
function itemAt(list, x, y) {
  var el = document.elementFromPoint(x, y);
  var li = el && el.closest("li");
  return li && li.parentNode === list ? li : null;
}
// Vertical, mouse events: the item follows the mouse; on mouseup it goes before or after the item under the pointer.
(function () {
  var list = $("#v")[0], drag = null;
  $("#v li").on("mousedown", function (e) { drag = { li: this, x: e.clientX, y: e.clientY, moved: false }; e.preventDefault(); });
  $(document).on("mousemove", function (e) {
    if (!drag) return;
    if (!drag.moved && Math.abs(e.clientY - drag.y) + Math.abs(e.clientX - drag.x) < 3) return;
    drag.moved = true;
    drag.li.classList.add("lifted");
    drag.li.style.top = (e.clientY - drag.y) + "px";
  });
  $(document).on("mouseup", function (e) {
    if (!drag) return;
    var li = drag.li;
    li.classList.remove("lifted");
    li.style.top = "";
    var over = drag.moved && itemAt(list, e.clientX, e.clientY);
    drag = null;
    if (!over || over === li) return;
    var r = over.getBoundingClientRect();
    list.insertBefore(li, e.clientY < r.top + r.height / 2 ? over : over.nextSibling);
    log("v", order(list));
  });
})();
// Horizontal, pointer events: the dragged item swaps with a neighbour once the pointer passes its midpoint.
(function () {
  var list = $("#h")[0], dragged = null;
  $("#h li").on("pointerdown", function (e) { dragged = this; this.classList.add("dragging"); e.preventDefault(); });
  $(document).on("pointermove", function (e) {
    if (!dragged) return;
    var over = itemAt(list, e.clientX, e.clientY);
    if (!over || over === dragged) return;
    var r = over.getBoundingClientRect(), mid = r.left + r.width / 2;
    var after = Array.prototype.indexOf.call(list.children, dragged) < Array.prototype.indexOf.call(list.children, over);
    if (after && e.clientX > mid) list.insertBefore(dragged, over.nextSibling);
    else if (!after && e.clientX < mid) list.insertBefore(dragged, over);
  });
  $(document).on("pointerup", function () {
    if (!dragged) return;
    dragged.classList.remove("dragging");
    dragged = null;
    log("h", order(list));
  });
})();
// HTML5 drag and drop: dragover marks the side of the item's midpoint the pointer is on; drop inserts there.
(function () {
  var list = $("#d")[0], dragged = null, before = null, over = null;
  $("#d li").on("dragstart", function (e) { dragged = this; e.dataTransfer.setData("text/plain", this.textContent); this.classList.add("dragging"); });
  $("#d li").on("dragend", function () { this.classList.remove("dragging"); dragged = null; });
  $("#d li").on("dragover", function (e) {
    if (!dragged || this === dragged) return;
    e.preventDefault();
    var r = this.getBoundingClientRect();
    over = this;
    before = e.clientY < r.top + r.height / 2;
  });
  $("#d").on("drop", function (e) {
    e.preventDefault();
    if (!dragged || !over) return;
    list.insertBefore(dragged, before ? over : over.nextSibling);
    over = null;
    log("d", order(list));
  });
})();`,
);

/**
 * Drag-and-drop placing, as board and planner pages do it: a card follows the mouse (grabbed where the press
 * was) and counts as dropped into a bin only when its whole box lies inside the bin ("fit" tolerance, jQuery UI's
 * droppable); a bin 1.7 times the card's size and one four times it. Logs `drop <bin>` or `drop outside`.
 */
export const DROP_BINS = doc(
  "Plan",
  `<div class="card" id="card">Task</div><div class="bin" id="near">Today</div><div class="bin" id="big">Later</div>`,
  `.card{position:absolute;left:20px;top:60px;width:90px;height:60px;background:#fd8;cursor:move;user-select:none}
.bin{position:absolute;border:2px dashed #999;box-sizing:border-box}
#near{left:300px;top:40px;width:153px;height:102px}#big{left:600px;top:40px;width:360px;height:240px}`,
  `var card = $("#card")[0], grab = null;
$("#card").on("mousedown", function (e) {
  var r = card.getBoundingClientRect();
  grab = { dx: e.clientX - r.left, dy: e.clientY - r.top };
  e.preventDefault();
});
$(document).on("mousemove", function (e) {
  if (!grab) return;
  card.style.left = (e.clientX - grab.dx) + "px";
  card.style.top = (e.clientY - grab.dy) + "px";
});
$(document).on("mouseup", function () {
  if (!grab) return;
  grab = null;
  var c = card.getBoundingClientRect(), into = "outside";
  ["near", "big"].forEach(function (id) {
    var b = document.getElementById(id).getBoundingClientRect();
    if (c.left >= b.left && c.right <= b.right && c.top >= b.top && c.bottom <= b.bottom) into = id;
  });
  log("drop", into);
  card.style.left = "20px"; card.style.top = "60px";
});`,
);

/**
 * A week planner: slots take an HTML5 drop, and existing events lie over slots: one over all of 9:00 but a 6 px
 * sliver above it, one over the whole of 11:00. A drag from a slot starts on what is visible of it; a slot wholly
 * under an event cannot be dragged from. Logs `move <from> <to>` on a drop.
 */
export const CALENDAR = doc(
  "Week",
  `<div class="day">${
    ["9:00", "10:00", "11:00", "12:00"].map((t) => `<div class="slot" draggable="true" data-t="${t}">${t}</div>`)
      .join("")
  }<div class="event" id="standup">Stand-up</div><div class="event" id="review">Review</div></div>`,
  `.day{position:relative;width:240px}.slot{height:40px;border-bottom:1px solid #ddd;box-sizing:border-box;padding:2px}
.event{position:absolute;left:0;right:0;background:#9cf;border-radius:4px}
#standup{top:6px;height:34px}#review{top:80px;height:40px}`,
  `var from = null;
$(".slot").on("dragstart", function (e) { from = this.getAttribute("data-t"); e.dataTransfer.setData("text/plain", from); });
$(".slot").on("dragover", function (e) { e.preventDefault(); });
$(".slot").on("drop", function (e) { e.preventDefault(); log("move", from + " " + this.getAttribute("data-t")); });`,
);

/**
 * A month grid whose days are picked by dragging across them (mouse events: a press on a day, moves, release), with
 * an event block inside a day over all of it but its number strip; a press on the event opens it and picks nothing.
 * Logs `pick <first> <last>` on release, `open <event>` on an event's click.
 */
export const MONTH_PICK = doc(
  "Month",
  `<div id="grid">${
    [15, 16, 17, 18, 19].map((d) =>
      `<div class="day" data-d="${d}"><span class="n">${d}</span>${
        d === 16 ? `<div class="ev" data-ev="launch">11:00 Launch</div>` : ""
      }</div>`
    ).join("")
  }</div>`,
  `#grid{display:flex;gap:2px}.day{position:relative;width:110px;height:80px;background:#f1f5f9}.n{font-size:12px}
.ev{position:absolute;left:2px;right:2px;top:16px;bottom:2px;background:#1d4ed8;color:#fff;cursor:pointer}`,
  `var from = null;
$(".day").on("mousedown", function (e) { if (e.target.closest(".ev")) return; from = this.getAttribute("data-d"); e.preventDefault(); });
$(document).on("mouseup", function (e) {
  if (!from) return;
  var el = document.elementFromPoint(e.clientX, e.clientY), day = el && el.closest(".day");
  log("pick", from + " " + (day ? day.getAttribute("data-d") : "none"));
  from = null;
});
$(".ev").on("click", function () { log("open", this.getAttribute("data-ev")); });`,
);

/** The images a :hover rule swaps in (served late, under SLOW_PREFIX): an icon and its hover state. */
export const HOVER_IMAGES: Readonly<Record<string, string>> = {
  "/img/star.svg":
    `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="24" height="24" fill="#bbb"/></svg>`,
  "/slow/star-on.svg":
    `<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28"><rect width="28" height="28" fill="#fc3"/></svg>`,
};

/**
 * An icon whose `:hover` rule swaps its image (`content: url(...)`) for one that loads late: while it loads, the
 * hovered icon has no size, the pointer leaves it and the rule lets go. A click on the icon logs `click star`.
 */
export const HOVER_CSS = doc(
  "Rate",
  `<p>Rate this answer</p><span class="rate"><img class="star" src="/img/star.svg" alt="Star"></span>`,
  `.star{cursor:pointer;vertical-align:middle}.star:hover{content:url(/slow/star-on.svg)}`,
  `$(".star").on("click", function () { log("click", "star"); });`,
);

/** Every page by its path. */
export const ACTION_PAGES: Readonly<Record<string, string>> = {
  ...HOVER_IMAGES,
  "/drop-bins": DROP_BINS,
  "/calendar": CALENDAR,
  "/month-pick": MONTH_PICK,
  "/hover-css": HOVER_CSS,
  "/fields": FIELDS,
  "/focus-steal": FOCUS_STEAL,
  "/overlay": OVERLAY,
  "/hover-menu": HOVER_MENU,
  "/terminal": TERMINAL,
  "/scroll-box": SCROLL_BOX,
  "/canvas": CANVAS,
  "/widgets": WIDGETS,
  "/pay-widget": PAY_WIDGET,
  "/icon-swap": ICON_SWAP,
  "/hover-render": HOVER_RENDER,
  "/hover-cover": HOVER_COVER,
  "/sortable": SORTABLE,
};
