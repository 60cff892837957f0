import assert from "node:assert/strict";
import { type DomElement, formatElements, type PageSnapshot } from "./mod.ts";
import { formatElement } from "./format.ts";

const element = (over: Partial<DomElement>): DomElement => ({
  index: 1,
  tag: "button",
  attributes: {},
  text: "",
  isNew: false,
  inViewport: true,
  rect: { x: 0, y: 0, width: 10, height: 10 },
  ...over,
});

const snapshot = (elements: DomElement[], pixelsAbove = 0, pixelsBelow = 0): PageSnapshot => ({
  url: "http://127.0.0.1/",
  title: "t",
  elements,
  scrollY: pixelsAbove,
  pixelsAbove,
  pixelsBelow,
  viewport: { width: 1280, height: 720 },
  pageHeight: 720 + pixelsAbove + pixelsBelow,
  visibleText: "",
  captureMs: 1,
});

Deno.test("formatElement() prints attributes in a fixed order, then the text on a tabbed line", () => {
  const el = element({
    index: 7,
    tag: "input",
    attributes: { placeholder: "Search  products", type: "search", name: "q", id: "box" },
  });
  assert.equal(formatElement(el), '[7]<input id=box name=q type=search placeholder="Search  products" />');
  assert.equal(formatElement(element({ text: "Buy now", isNew: true })), "*[1]<button />\n\tBuy now");
});

Deno.test("formatElement() drops attributes that repeat the tag, the text or an earlier value", () => {
  const el = element({
    tag: "button",
    attributes: { id: "username", name: "username", role: "button", type: "button", "aria-label": "Send" },
    text: "send",
  });
  assert.equal(formatElement(el), "[1]<button id=username />\n\tsend");
  // Near misses: short repeated values, protected keys, and labels that differ from the text stay.
  const kept = element({
    tag: "input",
    attributes: { id: "email", name: "email", placeholder: "username1", value: "username1", type: "submit" },
  });
  assert.equal(
    formatElement(kept),
    "[1]<input id=email name=email type=submit placeholder=username1 value=username1 />",
  );
  const labelled = element({ attributes: { "aria-label": "Send message", role: "link" }, text: "Send" });
  assert.equal(formatElement(labelled), "[1]<button role=link aria-label=Send message />\n\tSend");
});

Deno.test("formatElement() caps long values and lists a select's first options", () => {
  const long = "x".repeat(120);
  assert.equal(formatElement(element({ attributes: { title: long } })), `[1]<button title=${"x".repeat(100)}... />`);
  const select = element({
    tag: "select",
    attributes: { name: "size", value: "M" },
    options: ["XS", "S", "M", "L", "XL", "y".repeat(40)],
    optionCount: 9,
  });
  assert.equal(formatElement(select), "[1]<select name=size value=M options=XS|S|M|L|... 5 more options... />");
  assert.equal(
    formatElement(select, { maxOptions: 6 }),
    `[1]<select name=size value=M options=XS|S|M|L|XL|${"y".repeat(30)}...|... 3 more options... />`,
  );
  const few = element({ tag: "select", options: ["A", "B"], optionCount: 2 });
  assert.equal(formatElement(few), "[1]<select options=A|B />");
});

Deno.test("formatElements() frames the list with start, end and scroll markers", () => {
  const els = [element({ index: 1, text: "One" }), element({ index: 2, tag: "a", attributes: { href: "/x" } })];
  assert.equal(formatElements(snapshot(els)), "[Start of page]\n[1]<button />\n\tOne\n[2]<a href=/x />\n[End of page]");
  assert.equal(
    formatElements(snapshot(els, 300, 1200)),
    "... 300 pixels above - scroll to see more ...\n[1]<button />\n\tOne\n[2]<a href=/x />\n" +
      "... 1200 pixels below - scroll to see more ...",
  );
  // A few sub-pixel leftovers are not "content above".
  assert.match(formatElements(snapshot(els, 4, 4)), /^\[Start of page\]\n[\s\S]*\n\[End of page\]$/);
  assert.match(formatElements(snapshot(els, 5, 5)), /^\.\.\. 5 pixels above[\s\S]*\.\.\. 5 pixels below/);
  assert.equal(
    formatElements(snapshot([], 0, 900)),
    "[Start of page]\nempty page\n... 900 pixels below - scroll to see more ...",
  );
});

Deno.test("formatElement() shows values exactly, JSON-quoted when plain text would hide whitespace", () => {
  const line = (value: string) => formatElement(element({ tag: "input", attributes: { value } }));
  assert.equal(line("Jane Doe"), "[1]<input value=Jane Doe />");
  assert.equal(line(" Jane"), '[1]<input value=" Jane" />');
  assert.equal(line("Jane "), '[1]<input value="Jane " />');
  assert.equal(line("Jane  Doe"), '[1]<input value="Jane  Doe" />');
  assert.equal(line("line 1\nline 2"), '[1]<input value="line 1\\nline 2" />');
  assert.equal(line("a\tb"), '[1]<input value="a\\tb" />');
  assert.equal(line('"quoted" start'), '[1]<input value="\\"quoted\\" start" />');
  assert.equal(line('say "hi"'), '[1]<input value=say "hi" />');
  // What was read parses back to the exact value.
  const shown = line("  two  spaces\n").match(/value=(".*") \/>$/)![1];
  assert.equal(JSON.parse(shown), "  two  spaces\n");
});

Deno.test("formatElement() shows a value up to 1,000 characters, and says where it was cut", () => {
  const line = (value: string, over: Partial<DomElement> = {}) =>
    formatElement(element({ tag: "textarea", attributes: { value }, ...over }));
  const long = "x".repeat(999) + "yz";
  assert.equal(line("a".repeat(1000)), `[1]<textarea value=${"a".repeat(1000)} />`); // at the limit: whole
  assert.equal(line(long), `[1]<textarea value="${"x".repeat(999)}y" (cut: 1000 of 1001 chars) />`);
  // The snapshot already cut it: valueLength keeps the whole length.
  assert.equal(
    line("line 1\nline 2", { valueLength: 2400 }),
    '[1]<textarea value="line 1\\nline 2" (cut: 13 of 2400 chars) />',
  );
  // The part at the field's scroll position says which characters it is.
  assert.equal(
    line("Clause 31", { valueLength: 2400, valueStart: 1200 }),
    '[1]<textarea value="Clause 31" (cut: chars 1201-1209 of 2400, where the field is scrolled) />',
  );
  // Not half a surrogate pair; a lower cap.
  assert.equal(
    formatElement(element({ tag: "input", attributes: { value: "ab😀cd" } }), { maxValueLength: 3 }),
    '[1]<input value="ab" (cut: 2 of 6 chars) />',
  );
});
