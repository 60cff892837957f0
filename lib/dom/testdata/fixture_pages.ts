/**
 * Small pages that pin down one behaviour each of snapshotPage (see dom_test.ts). Ids name what a test expects:
 * `k-*` must be indexed, `n-*` and `h-*` must not.
 */

const doc = (title: string, body: string, style = "") =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>body{font:14px sans-serif;margin:8px}${style}</style>` +
  `</head><body>${body}</body></html>`;

/** One element of each interactive kind, plus near misses, all inside a 1280×720 viewport. */
export const KINDS = doc(
  "Kinds",
  `<div class="grid">
<a id="k-link" href="/home?x=1#top">Home link</a>
<a id="k-external" href="https://example.org/a?b=1">External</a>
<button id="k-button">Press</button>
<input id="k-text" name="user" placeholder="User name">
<input id="k-check" type="checkbox" checked>
<input id="k-radio" type="radio" name="r">
<select id="k-select"><option>One</option><option selected>Two</option></select>
<textarea id="k-area">Some text</textarea>
<div id="k-role-button" role="button">Role button</div>
<span id="k-role-link" role="link">Role link</span>
<span id="k-role-checkbox" role="checkbox" aria-checked="true">Role checkbox</span>
<span id="k-role-radio" role="radio" aria-checked="false">Role radio</span>
<div id="k-role-option" role="option" aria-selected="true">Role option</div>
<div id="k-role-combobox" role="combobox" aria-expanded="false">Role combobox</div>
<div id="k-role-tab" role="tab">Role tab</div>
<div id="k-role-menuitem" role="menuitem">Role menuitem</div>
<div id="k-role-switch" role="switch" aria-checked="false">Role switch</div>
<div id="k-role-slider" role="slider" aria-valuenow="30">Role slider</div>
<div id="k-onclick" onclick="void 0">Onclick div</div>
<div id="k-drag" draggable="true">Drag me</div>
<div id="k-edit" contenteditable="true">Edit me</div>
<details id="n-details"><summary id="k-summary">More</summary>Details body</details>
<label id="k-label" for="n-styled">Styled box</label>
<input id="n-styled" type="checkbox" style="position:absolute;opacity:0;width:1px;height:1px">
<div id="n-plain">Plain div</div>
<a id="n-nohref">Anchor without href</a>
<input id="n-hidden-input" type="hidden" value="x">
<label id="n-label" for="k-text">Label of a visible input</label>
<div id="n-tabindex" tabindex="-1">Tabindex -1</div>
<button id="k-disabled" disabled>Disabled</button>
<input id="k-password" type="password" value="secret">
</div>`,
  ".grid{display:flex;flex-wrap:wrap;gap:10px;width:1200px}.grid>*{padding:4px}",
);

/** Elements hidden or covered in every way snapshotPage must notice, and visible near misses. */
export const HIDDEN = doc(
  "Hidden",
  `<button id="k-ok">Visible</button>
<button id="h-display" style="display:none">Display none</button>
<button id="h-visibility" style="visibility:hidden">Visibility hidden</button>
<button id="h-opacity" style="opacity:0">Opacity zero</button>
<div aria-hidden="true"><button id="k-aria">Aria hidden, yet visible</button></div>
<div inert><button id="h-inert">Inert</button></div>
<button id="h-zero" style="width:0;height:0;padding:0;border:0;overflow:hidden">Zero size</button>
<div class="box"><button id="h-covered">Covered</button><div class="cover"></div></div>
<div class="box"><button id="k-corner">Corner covered</button><div class="corner"></div></div>
<div class="box"><button id="k-through">Under a pass-through layer</button><div class="cover ghost"></div></div>
<button id="h-offcanvas" style="position:absolute;left:-500px;top:60px">Off canvas</button>
<div style="height:3000px"></div>
<button id="k-below">Below the fold</button>`,
  `.box{position:relative;margin:8px 0}.cover{position:absolute;inset:0;background:#fff}
.corner{position:absolute;left:0;top:0;width:4px;height:4px;background:red}.ghost{pointer-events:none;opacity:.5}`,
);

/** Text at the top, hidden text, and text far below the fold. */
export const TEXT = doc(
  "Text",
  `<h1>Top heading</h1>
<p>First <b>bold</b>, then more.</p>
<p style="display:none">Hidden paragraph</p>
<p style="visibility:hidden">Invisible paragraph</p>
<table><tr><td>Cell A</td><td>Cell B</td></tr></table>
<select><option>Option text</option></select>
<div style="height:2000px"></div>
<p id="far">Far below text</p>
<div style="height:1000px"></div>`,
);

/** The page whose formatElements output dom_test.ts pins line by line. */
export const SMALL = doc(
  "Small",
  `<a href="/home">Home</a>
<input name="q" placeholder="Search">
<button type="submit">Go</button>
<label>Size <select name="size"><option>S</option><option selected>M</option></select></label>
<label><input type="checkbox" name="agree" checked> I agree</label>
<div role="button" aria-label="Close" onclick="void 0">×</div>`,
);

/** A page taller than the viewport, for the scroll markers. */
export const TALL = doc(
  "Tall",
  `<button id="top">Top</button><div style="height:2000px"></div><button id="bottom">Bottom</button>`,
);

/**
 * Controls placed outside their off-screen ancestors' boxes: a fixed button and an absolutely positioned one
 * whose containers lie far below the viewport (snapshotPage's 80 px grid of hit tests finds them: each covers a
 * grid point), and a control far below that stays off-screen.
 */
export const ESCAPED = doc(
  "Escaped",
  `<p>Top text</p>
<div style="height:3000px"></div>
<footer style="height:100px">
  <button id="k-fixed" style="position:fixed;right:20px;bottom:20px;width:80px;height:40px">Back to top</button>
  <div style="position:relative;height:50px">
    <button id="k-abs" style="position:absolute;top:-2900px;left:300px;width:140px;height:90px">Pulled up</button>
    <button id="n-below">Far below</button>
  </div>
</footer>`,
);
