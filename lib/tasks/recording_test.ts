/** A recording turned into replay steps: target descriptions, locators, what is skipped, and resolution on a page. */
import assert from "node:assert/strict";
import { HarnessError } from "../errors/mod.ts";
import type { HumanTask } from "./human_task.ts";
import type { Recording } from "./human_schema.ts";
import { parseTarget, recordingActions, recordingSteps, selectorFor } from "./recording.ts";
import { findElement, resolveStep } from "./resolve.ts";

Deno.test('parseTarget() reads the recorder\'s `tag#id[name=n] "text"`', () => {
  assert.deepEqual(parseTarget('button#add-to-cart "Add to cart"'), {
    tag: "button",
    id: "add-to-cart",
    text: "Add to cart",
  });
  assert.deepEqual(parseTarget('input#size-l[name=size] "L"'), { tag: "input", id: "size-l", name: "size", text: "L" });
  assert.deepEqual(parseTarget('input[name=q] "Search "mail""'), { tag: "input", name: "q", text: 'Search "mail"' });
  assert.deepEqual(parseTarget("summary"), { tag: "summary" });
  assert.equal(parseTarget(""), undefined);
  assert.equal(parseTarget(42), undefined);
  assert.equal(parseTarget("not a description!"), undefined);
});

Deno.test("selectorFor() prefers the id, then the name, then the attribute the text came from", () => {
  assert.equal(selectorFor({ tag: "button", id: "go" }), "#go");
  assert.equal(selectorFor({ tag: "div", id: "card MOB-1" }), '[id="card MOB-1"]');
  assert.equal(selectorFor({ tag: "select", name: "sort", text: "Featured Price" }), 'select[name="sort"]');
  assert.equal(
    selectorFor({ tag: "input", name: "size", text: "M" }),
    'input[name="size"][value="M"], input[name="size"][aria-label="M"], input[name="size"][placeholder="M"], ' +
      'input[name="size"][title="M"]',
  );
  assert.equal(selectorFor({ tag: "input", name: "q", text: "lamp" }, "lamp"), 'input[name="q"]', "typed text");
  assert.equal(selectorFor({ tag: "input", text: "lamp" }, "lamp"), undefined);
  assert.match(selectorFor({ tag: "input", text: "To" })!, /^input\[value="To"\], input\[aria-label="To"\]/);
});

const entry = (action: string, target: string, extra: Record<string, unknown> = {}) => ({
  type: "action",
  action,
  target,
  url: "http://127.0.0.1:9/x",
  ...extra,
});
const load = (url: string, t = 0) => ({ type: "observation", kind: "page_load", url, t });

const recording = (entries: Record<string, unknown>[], answer: string | null = null): Recording => ({
  start_url: "http://127.0.0.1:9/shop/",
  answer,
  entries,
});

Deno.test("recordingSteps() replays causes, not their effects", () => {
  const steps = recordingSteps(recording([
    load("http://127.0.0.1:9/shop/products/33"),
    entry("click", 'input#size-l[name=size] "L"', { t: 10 }),
    entry("change", 'input#size-l[name=size] "L"', { value: "L", t: 10 }), // the click's effect
    entry("click", 'label "Red"', { t: 20 }),
    entry("click", 'input#colour-red[name=colour] "Red"', { t: 20 }), // the label's click on its control
    entry("change", 'input#colour-red[name=colour] "Red"', { value: "Red", t: 20 }),
    entry("change", 'input#estimate[name=estimate] "10"', { value: "10", t: 30 }), // a slider's press, then click
    entry("click", 'input#estimate[name=estimate] "10"', { t: 30 }),
    entry("key", 'input#estimate[name=estimate] "10"', { value: "ArrowRight", t: 40 }),
    entry("change", 'input#estimate[name=estimate] "11"', { value: "11", t: 40 }),
    entry("click", 'button "2026-03-20"', { t: 50 }),
    entry("change", 'input#date[name=date] "YYYY-MM-DD"', { value: "2026-03-20", t: 51 }), // the picker's handler
    entry("key", 'input#q[name=q] "old"', { value: "Backspace", t: 60 }), // editing before the typed value
    entry("input", 'input#q[name=q] "lamp"', { value: "lamp", t: 61 }),
    entry("key", 'input#q[name=q] "lamp"', { value: "Enter", t: 62 }),
    entry("scroll", "", { value: 300 }),
    entry("click", 'td "Row text"'), // an inert block
    entry("change", 'input#notify[name=notify] "on"', { value: "", t: 99 }), // a toggle with no click: replayed as one
  ]));
  assert.deepEqual(steps.map((s) => s.action), [
    { click: { selector: "#size-l" } },
    { click: { text: "Red" } },
    { click: { selector: "#estimate" } },
    { send_keys: { keys: "ArrowRight" } },
    {
      click: {
        selector:
          'button[value="2026-03-20"], button[aria-label="2026-03-20"], button[placeholder="2026-03-20"], button[title="2026-03-20"]',
      },
    },
    { input: { selector: "#q", text: "lamp" } },
    { send_keys: { keys: "Enter" } },
    { click: { text: "Row text" } },
    { click: { selector: "#notify" } },
    { done: { text: "" } },
  ]);
  assert.deepEqual(steps[1].alternatives, [{
    click: { selector: 'label[value="Red"], label[aria-label="Red"], label[placeholder="Red"], label[title="Red"]' },
  }]);
  assert.deepEqual(steps[4].alternatives, [{ click: { text: "2026-03-20" } }], "a date reads like an aria-label");
  assert.deepEqual(steps.map((s) => s.optional ?? false).indexOf(true), 7, "only the click on an inert block");
  const [cell] = steps.filter((s) => s.optional);
  assert.deepEqual(resolveStep(cell, [el(5, "a", "Row text")]), cell.action, "never a link that shares its text");
  assert.deepEqual(resolveStep(cell, [el(6, "td", "Row text")]), { click: { index: 6 } });
});

Deno.test("recordingSteps() navigates to pages no action loaded, and ends with the recorded answer", () => {
  const steps = recordingSteps(recording([
    load("http://127.0.0.1:9/"),
    entry("click", 'a "Tracker"'),
    load("http://127.0.0.1:9/tracker/"),
    load("http://127.0.0.1:9/tracker/issues/API-20?tab=details#top"), // typed in the address bar
    entry("input", 'input#q[name=q] "x"', { value: "x" }),
    load("http://127.0.0.1:9/mail/contacts"), // typing loads nothing: a navigation
    entry("drag", 'div#card-MOB-10 "MOB-10 Fix it"', { value: 'section#col-done "Done"' }),
    entry("upload", 'input#attachment[name=attachment] "signed_contract.txt"', { value: "signed_contract.txt, b.txt" }),
    entry("select", 'select#sort[name=sort] "Featured Price: low"', { value: "Price: low to high" }),
  ], "marcus.chen@sandbox.test"));
  assert.deepEqual(steps.map((s) => s.action), [
    { click: { text: "Tracker" } },
    { navigate: { url: "/tracker/issues/API-20?tab=details#top" } },
    { input: { selector: "#q", text: "x" } },
    { navigate: { url: "/mail/contacts" } },
    { drag: { source: { selector: "#card-MOB-10" }, target: { selector: "#col-done" } } },
    { upload_file: { selector: "#attachment", path: "signed_contract.txt" } },
    { select_dropdown: { selector: "#sort", text: "Price: low to high" } },
    { done: { text: "marcus.chen@sandbox.test" } },
  ]);
});

const el = (index: number, tag: string, text: string, attributes: Record<string, string> = {}) => ({
  index,
  tag,
  text,
  attributes,
});

Deno.test("resolveStep() pins a description without id or name to the element of its tag on the page", () => {
  const elements = [
    el(1, "a", "Sign in", { href: "/login" }), // the topbar link a text locator would pick first
    el(2, "button", "Sign in"),
    el(3, "button", "20", { "aria-label": "2026-03-20" }),
    el(4, "input", "", { "aria-label": "To", placeholder: "Choose…" }),
  ];
  const [signIn] = recordingSteps(recording([entry("click", 'button "Sign in"')]));
  assert.deepEqual(signIn.action, { click: { text: "Sign in" } });
  assert.deepEqual(resolveStep(signIn, elements), { click: { index: 2 } });
  const [day] = recordingSteps(recording([entry("click", 'button "2026-03-20"')]));
  assert.deepEqual(resolveStep(day, elements), { click: { index: 3 } });
  const [to] = recordingSteps(recording([entry("input", 'input "To"', { value: "Sofia" })]));
  assert.deepEqual(resolveStep(to, elements), { input: { text: "Sofia", index: 4 } });
  const [byId] = recordingSteps(recording([entry("click", 'button#go "Sign in"')]));
  assert.equal(resolveStep(byId, elements), byId.action, "an id is exact: left as it is");
  const [gone] = recordingSteps(recording([entry("click", 'button "Nowhere"')]));
  assert.equal(resolveStep(gone, elements), gone.action, "not on the page: the step's own action");
  assert.equal(findElement({ tag: "a", text: "sign  IN" }, elements), 1);
  const [drag] = recordingSteps(recording([entry("drag", 'li "Alpha"', { value: 'li#b "Bravo"' })]));
  assert.deepEqual(resolveStep(drag, [el(7, "li", "Alpha")]), {
    drag: { target: { selector: "#b" }, source_index: 7 },
  });
});

Deno.test("recordingActions() needs a recording", () => {
  const task = { task_id: "t1", dir: "/a/t1", recording: null } as unknown as HumanTask;
  assert.throws(
    () => recordingActions(task),
    (e) => e instanceof HarnessError && /"t1" has no recording\.json in \/a\/t1/.test(e.message),
  );
});
