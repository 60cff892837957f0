import assert from "node:assert/strict";
import { HarnessError } from "../errors/mod.ts";
import { type Action, ACTION_NAMES, type ActionName, formatAction, OLD_ACTION_NAMES, parseAction } from "./action.ts";

function rejects(raw: unknown, message: string): void {
  assert.throws(
    () => parseAction(raw),
    (e: unknown) => e instanceof HarnessError && e.message === `invalid action: ${message}`,
    `${JSON.stringify(raw)} should be rejected with "${message}"`,
  );
}

Deno.test("parseAction() reads every action of the table, defaults applied", () => {
  const cases: [unknown, unknown][] = [
    [{ navigate: { url: "/shop/" } }, { url: "/shop/", new_tab: false }],
    [{ click: { index: 0 } }, { index: 0 }],
    [{ click: { coordinate_x: 500, coordinate_y: 120.5 } }, { coordinate_x: 500, coordinate_y: 120.5 }],
    [{ hover: { text: "Products" } }, { text: "Products" }],
    [{ input: { index: 3, text: "" } }, { index: 3, text: "", clear: true }],
    [{ send_keys: { keys: "Control+a" } }, { keys: "Control+a" }],
    [{ select_dropdown: { selector: "#ship", text: "Express" } }, { selector: "#ship", text: "Express" }],
    [{ dropdown_options: { text: "Shipping" } }, { text: "Shipping" }],
    [{ scroll: {} }, { down: true, pages: 1 }],
    [{ go_back: {} }, {}],
    [{ switch: { tab_id: "a1b2" } }, { tab_id: "a1b2" }],
    [{ close: { tab_id: "a1b2" } }, { tab_id: "a1b2" }],
    [{ upload_file: { selector: "#file", path: "report.pdf" } }, { selector: "#file", path: "report.pdf" }],
    [{ wait: {} }, { seconds: 3 }],
    [{ drag: { source_index: 1, target_index: 2 } }, { source_index: 1, target_index: 2 }],
    [{ clipboard_read: {} }, {}],
    [{ clipboard_write: { text: "ORD-1" } }, { text: "ORD-1" }],
    [{ done: { text: "14", files_to_display: [] } }, { text: "14", success: true }],
    [{ macro_done: {} }, {}],
  ];
  assert.deepEqual(new Set(cases.map(([raw]) => Object.keys(raw as object)[0])), new Set(ACTION_NAMES));
  for (const [raw, params] of cases) {
    const a = parseAction(raw);
    assert.equal(a.name, Object.keys(raw as object)[0]);
    assert.deepEqual(a.params, params, JSON.stringify(raw));
  }
});

Deno.test("parseAction() reads hover, send_keys text, scroll at a point and drag along a path", () => {
  assert.deepEqual(parseAction({ hover: { coordinate_x: 10, coordinate_y: 20 } }).params, {
    coordinate_x: 10,
    coordinate_y: 20,
  });
  assert.deepEqual(parseAction({ send_keys: { text: "Enter" } }).params, { text: "Enter" });
  assert.deepEqual(parseAction({ scroll: { coordinate_x: 300, coordinate_y: 400, down: false } }).params, {
    coordinate_x: 300,
    coordinate_y: 400,
    down: false,
    pages: 1,
  });
  const path = [{ x: 1, y: 2 }, { x: 3, y: 4 }, { x: 5, y: 6 }];
  assert.deepEqual(parseAction({ drag: { path } }).params, { path });
  rejects({ hover: {} }, "hover.index: is missing (give one of index, selector, text, coordinate_x/coordinate_y)");
  rejects({ send_keys: {} }, "send_keys.keys: is missing (give one of keys, text)");
  rejects({ send_keys: { keys: "a", text: "b" } }, 'send_keys.text: conflicts with "keys" (give one of keys, text)');
  rejects({ scroll: { coordinate_x: 3 } }, 'scroll.coordinate_y: is missing (goes with "coordinate_x")');
  rejects(
    { scroll: { index: 2, coordinate_x: 3, coordinate_y: 4 } },
    'scroll.coordinate_x: conflicts with "index" (give one of index, selector, text, coordinate_x/coordinate_y)',
  );
  rejects({ drag: { path: [{ x: 1, y: 2 }] } }, "drag.path: must have at least 2 item(s)");
  rejects({ drag: { path, target_index: 2 } }, 'drag.target_index: conflicts with "path" (give one of them)');
});

Deno.test("parseAction() reads browser-use 0.x's older names as the actions they are", () => {
  const cases: [unknown, unknown][] = [
    [{ click_element_by_index: { index: 4, xpath: null } }, { name: "click", params: { index: 4 } }],
    [{ click_element: { index: 4, xpath: "html/body/a", right_click: false } }, {
      name: "click",
      params: { index: 4 },
    }],
    [{ input_text: { index: 2, text: "ls" } }, { name: "input", params: { index: 2, text: "ls", clear: true } }],
    [{ go_to_url: { url: "/shop/" } }, { name: "navigate", params: { url: "/shop/", new_tab: false } }],
    [{ open_tab: { url: "/shop/" } }, { name: "navigate", params: { url: "/shop/", new_tab: true } }],
    [{ scroll_down: {} }, { name: "scroll", params: { down: true, pages: 1 } }],
    [{ scroll_down: { amount: null } }, { name: "scroll", params: { down: true, pages: 1 } }],
    [{ scroll_up: { amount: 300 } }, { name: "scroll", params: { down: false, pages: 1, pixels: 300 } }],
    [{ send_keys: { keys: "ls" } }, { name: "send_keys", params: { keys: "ls" } }],
    [{ get_dropdown_options: { index: 3 } }, { name: "dropdown_options", params: { index: 3 } }],
    [{ select_dropdown_option: { index: 3, text: "Red" } }, {
      name: "select_dropdown",
      params: { index: 3, text: "Red" },
    }],
    [{ drag_drop: { element_source: "#a", element_target: "#b", steps: 10, delay_ms: 5 } }, {
      name: "drag",
      params: { source: { selector: "#a" }, target: { selector: "#b" } },
    }],
    [{ drag_drop: { coord_source_x: 1, coord_source_y: 2, coord_target_x: 3, coord_target_y: 4 } }, {
      name: "drag",
      params: { source_x: 1, source_y: 2, target_x: 3, target_y: 4 },
    }],
  ];
  for (const [raw, parsed] of cases) assert.deepEqual(parseAction(raw), parsed, JSON.stringify(raw));
  assert.deepEqual(
    new Set(Object.keys(OLD_ACTION_NAMES)),
    new Set(cases.map(([raw]) => Object.keys(raw as object)[0]).filter((n) => n !== "send_keys")),
  );
  // What has no counterpart is named, under the action it runs as.
  rejects({ click_element_by_index: { index: 4, right_click: true } }, "click.right_click: is not a known field");
  rejects({ input_text: { index: 2 } }, "input.text: is missing");
});

Deno.test("parseAction() accepts locators beside the model's index", () => {
  assert.deepEqual(parseAction({ click: { selector: "#add-to-cart" } }).params, { selector: "#add-to-cart" });
  assert.deepEqual(parseAction({ click: { text: "Add to cart" } }).params, { text: "Add to cart" });
  assert.deepEqual(parseAction({ drag: { source: { text: "Fix login" }, target: { selector: "#done" } } }).params, {
    source: { text: "Fix login" },
    target: { selector: "#done" },
  });
  assert.deepEqual(
    parseAction({ drag: { source_x: 10, source_y: 20, target_index: 7 } }).params,
    { source_x: 10, source_y: 20, target_index: 7 },
  );
});

Deno.test("parseAction() treats null params and null fields as absent", () => {
  assert.deepEqual(parseAction({ go_back: null }), { name: "go_back", params: {} });
  assert.deepEqual(parseAction({ click: { index: null, coordinate_x: 1, coordinate_y: 2 } }).params, {
    coordinate_x: 1,
    coordinate_y: 2,
  });
  assert.deepEqual(parseAction({ macro_done: { note: "ignored" } }).params, {}, "param-less actions ignore params");
});

Deno.test("parseAction() names the bad field", () => {
  rejects({ click: { index: -1 } }, "click.index: must be >= 0, got -1");
  rejects({ click: { index: 2.5 } }, "click.index: expected an integer, got 2.5");
  rejects({ click: { index: "3" } }, 'click.index: expected a number, got "3"');
  rejects({ click: {} }, "click.index: is missing (give one of index, selector, text, coordinate_x/coordinate_y)");
  rejects(
    { click: { index: 1, selector: "#a" } },
    'click.selector: conflicts with "index" (give one of index, selector, text, coordinate_x/coordinate_y)',
  );
  rejects({ click: { coordinate_x: 5 } }, 'click.coordinate_y: is missing (goes with "coordinate_x")');
  rejects({ click: { index: 1, while_holding_ctrl: true } }, "click.while_holding_ctrl: is not a known field");
  rejects({ input: { index: 1 } }, "input.text: is missing");
  rejects({ input: { text: "Alex" } }, "input.index: is missing (give one of index, selector)");
  rejects({ navigate: { url: "" } }, "navigate.url: must not be empty");
  rejects({ scroll: { pages: 0 } }, "scroll.pages: must be > 0, got 0");
  rejects({ switch: { tab_id: 1234 } }, "switch.tab_id: expected a string, got 1234");
  rejects(
    { upload_file: { index: 1, path: "../secret" } },
    'upload_file.path: must be a file name in the upload folder, got "../secret"',
  );
  rejects(
    { drag: { source_index: 1 } },
    "drag.target_index: is missing (give one of target_index, target, target_x/target_y)",
  );
  rejects(
    { drag: { source: { css: "#a" }, target_index: 1 } },
    "drag.source.css: is not a known field (and 1 more problem(s))",
  );
  rejects({ done: { success: true } }, "done.text: is missing");
  rejects({ wait: { seconds: -1 } }, "wait.seconds: must be >= 0, got -1");
});

Deno.test("parseAction() rejects what is not one known action", () => {
  rejects({ fly: {} }, `expected an action (one of ${ACTION_NAMES.join(", ")}), got "fly"`);
  rejects("click", 'expected an action, got "click"');
  rejects([{ click: { index: 1 } }], "expected an action, got a list");
  rejects({ click: { index: 1 }, input: { index: 1, text: "" } }, 'has both "click" and "input" (one kind per object)');
  rejects({ click: { index: 1 }, reason: "x" }, "reason: is not a known field");
  rejects({ click: [1] }, "click: expected an object, got a list");
});

Deno.test("formatAction() gives back the {name: params} form", () => {
  assert.deepEqual(formatAction(parseAction({ click: { index: 4 } })), { click: { index: 4 } });
});

Deno.test("Action narrows by name and reads as a generic {name, params}", () => {
  const a: Action = parseAction({ input: { selector: "#name", text: "Alex" } });
  const generic: { name: ActionName; params: Record<string, unknown> } = a; // the executor's view
  assert.equal(generic.params.text, "Alex");
  if (a.name === "input") assert.equal(a.params.clear, true); // typed params after narrowing
  else assert.fail("expected an input action");
});
