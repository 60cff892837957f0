/**
 * Pages for lib/dom's tests and bench/dom_bench.ts: a small checkout form and a large table of controls.
 */

/** A small form page: about a dozen controls, like the sandbox's checkout (fits a 1280×720 viewport). */
export function formPage(): string {
  return `<!doctype html><html><head><title>Checkout</title><style>
body { font: 14px sans-serif; margin: 16px; } label { display: block; margin: 6px 0; }
</style></head><body>
<nav><a href="/">Home</a> <a href="/cart">Cart</a> <a href="/account">Account</a></nav>
<h1>Checkout</h1>
<form action="/order" method="post">
  <label>Full name <input name="name" placeholder="Jane Doe"></label>
  <label>Email <input name="email" type="email" placeholder="jane@example.com"></label>
  <label>Country <select name="country"><option>France</option><option>Germany</option><option>Spain</option>
  </select></label>
  <label>Notes <textarea name="notes"></textarea></label>
  <label><input type="checkbox" name="gift"> Gift wrap</label>
  <fieldset><legend>Delivery</legend>
    <label><input type="radio" name="ship" value="std" checked> Standard</label>
    <label><input type="radio" name="ship" value="exp"> Express</label>
  </fieldset>
  <details><summary>Promo code</summary><input name="promo"></details>
  <button type="submit">Place order</button> <button type="button" onclick="history.back()">Cancel</button>
</form>
<p>Orders placed before 14:00 ship the same day.</p>
</body></html>`;
}

/** A page with a `rows`-row table; each row holds a link, a text input, a select of 5 options and a button. */
export function tablePage(rows = 1500): string {
  const body: string[] = [];
  for (let i = 1; i <= rows; i++) {
    body.push(
      `<tr><td>${i}</td><td><a href="/item/${i}">Item ${i}</a></td>` +
        `<td><input name="qty${i}" value="${i % 7}" size="4"></td>` +
        `<td><select name="size${i}"><option>XS</option><option>S</option><option>M</option>` +
        `<option>L</option><option>XL</option></select></td>` +
        `<td><button type="button" data-row="${i}">Add</button></td></tr>`,
    );
  }
  return `<!doctype html><html><head><title>Catalogue</title><style>
body { font: 14px sans-serif; margin: 8px; } td { padding: 2px 6px; }
</style></head><body><h1>Catalogue</h1><table><thead><tr><th>#</th><th>Item</th><th>Qty</th><th>Size</th>
<th></th></tr></thead><tbody>${body.join("\n")}</tbody></table></body></html>`;
}

/**
 * A `rows`-row list built the way script-heavy apps build it: each row a `div` (rows open on a click delegated
 * from the document, shown by `cursor: pointer`), holding a `span` and a `div` bound with addEventListener and no
 * role, href or tabindex. Its script runs when the page loads (setContent included).
 */
export function listenerPage(rows = 1500): string {
  const body: string[] = [];
  for (let i = 1; i <= rows; i++) {
    body.push(
      `<div class="row" data-row="${i}"><span class="num">${i}</span><span class="link">Item ${i}</span>` +
        `<span class="note">In stock</span><div class="btn">Add</div></div>`,
    );
  }
  return `<!doctype html><html><head><title>Listing</title><style>
body { font: 14px sans-serif; margin: 8px; } .row { cursor: pointer; display: flex; gap: 12px; padding: 2px; }
.link { color: #06c; } .btn { background: #28a; color: #fff; padding: 0 6px; }
</style></head><body><h1>Listing</h1><div id="list">${body.join("\n")}</div><script>
for (const el of document.querySelectorAll(".link, .btn")) el.addEventListener("click", () => {});
document.addEventListener("click", (e) => e.target.closest(".row"));
</script></body></html>`;
}
