/**
 * How the actions become evidence: hover, send_keys text, scroll at a point, a drag along a path and browser-use
 * 0.x's older names as action events, and a gate `event` condition reading them.
 */
import assert from "node:assert/strict";
import { actionEvents, gate } from "../lib/grading/mod.ts";
import {
  type Check,
  checkSchema,
  type Evidence,
  OLD_ACTION_NAMES,
  parseAction,
  ROW_FAMILY,
} from "../lib/protocol/mod.ts";

const trace = [
  { action: [{ hover: { index: 3 } }, { send_keys: { keys: "ls" } }, { send_keys: { text: "Enter" } }] },
  {
    action: [{ scroll: { coordinate_x: 300, coordinate_y: 200 } }, {
      drag: { path: [{ x: 1, y: 2 }, { x: 3, y: 4 }] },
    }],
  },
  { action: [{ click_element_by_index: { index: 4 } }, { input_text: { index: 2, text: "Alex" } }] },
  { action: [{ go_to_url: { url: "/shop/" } }, { scroll_down: { amount: 200 } }, { scroll_up: null }] },
  { action: [{ select_dropdown_option: { index: 5, text: "Red" } }, { get_dropdown_options: { index: 5 } }] },
  { action: [{ drag_drop: { element_source: "#a", element_target: "#b" } }, { open_tab: { url: "/" } }] },
];

Deno.test("actionEvents() maps the new actions and the older names as the actions they run as", () => {
  assert.deepEqual(actionEvents(trace).map((e) => [e.action, e.value]), [
    ["hover", undefined],
    ["key", "ls"],
    ["key", "Enter"],
    ["scroll", undefined],
    ["drag", undefined],
    ["click", undefined],
    ["type", "Alex"],
    ["navigate", undefined],
    ["scroll", undefined],
    ["scroll", undefined],
    ["select", "Red"],
    ["dropdown_options", undefined],
    ["drag", undefined],
    ["navigate", undefined],
  ]);
});

Deno.test("every older name gives the event of the action it parses as", () => {
  const sample: Record<string, Record<string, unknown>> = {
    click_element_by_index: { index: 1 },
    click_element: { index: 1 },
    input_text: { index: 1, text: "x" },
    go_to_url: { url: "/" },
    open_tab: { url: "/" },
    scroll_down: {},
    scroll_up: {},
    get_dropdown_options: { index: 1 },
    select_dropdown_option: { index: 1, text: "x" },
    drag_drop: { element_source: "#a", element_target: "#b" },
  };
  assert.deepEqual(Object.keys(sample).sort(), Object.keys(OLD_ACTION_NAMES).sort());
  for (const [old, params] of Object.entries(sample)) {
    const parsed = parseAction({ [old]: params });
    assert.equal(parsed.name, OLD_ACTION_NAMES[old]);
    const [asOld] = actionEvents([{ action: [{ [old]: params }] }]);
    const [asNew] = actionEvents([{ action: [{ [parsed.name]: parsed.params }] }]);
    assert.deepEqual(asOld, asNew, old);
  }
});

Deno.test("a gate event condition reads a typed send_keys and an input_text", () => {
  const evidence: Evidence = {
    base: "http://127.0.0.1:1",
    log: [],
    changes: [],
    clip: [],
    events: actionEvents(trace),
    record: [],
    answer: null,
    seen: [],
  };
  const check = (raw: unknown) => checkSchema.parse(raw) as Check;
  assert.ok(gate(check({ event: { action: "key", value: "ls" } }), null, evidence).ok);
  assert.ok(gate(check({ event: { action: "type", value: "Alex" } }), null, evidence).ok);
  assert.ok(gate(check({ event: { action: "hover" }, times: 1 }), null, evidence).ok);
  assert.ok(!gate(check({ event: { action: "type", value: "ls" } }), null, evidence).ok);
});

Deno.test("a training row whose reply uses an older name gets the family of the action it runs as", () => {
  assert.equal(ROW_FAMILY.input_text, "Text entry");
  assert.equal(ROW_FAMILY.select_dropdown_option, "Discrete selection");
  assert.equal(ROW_FAMILY.get_dropdown_options, "Discrete selection");
  assert.equal(ROW_FAMILY.drag_drop, "Drag & gesture");
  for (const old of ["click_element_by_index", "go_to_url", "scroll_down", "hover"]) {
    assert.equal(ROW_FAMILY[old], undefined, `${old}: Navigation, as click, navigate and scroll`);
  }
});
