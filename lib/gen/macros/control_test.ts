import assert from "node:assert/strict";
import { seedDb } from "../data.ts";
import { TEMPLATES } from "../templates/mod.ts";
import { calendarClicks, pickDate } from "./date.ts";
import { chooseFromCombobox } from "./combobox.ts";
import type { Segment } from "./macro.ts";
import { chooseRadio } from "./radio.ts";
import { selectOption } from "./select.ts";
import { setSlider } from "./slider.ts";
import { toggleCheckbox } from "./toggle.ts";

const SORTS = ["Featured", "Price: low to high", "Price: high to low", "Name: A to Z"];
const kinds = (s: Segment) => s.attacks.map((a) => a.kind);
const json = (x: unknown) => JSON.stringify(x);

Deno.test("a list control: its own last change and the list it opened; a typed URL is a method attack", () => {
  const s = selectOption("#sort", "Name: A to Z", { list: { path: "/shop/products", query: { sort: "name" } } }, {
    options: SORTS,
    from: "Featured",
  });
  const [own, opened] = s.method as { record: Record<string, unknown>; bound?: string; opened?: unknown }[];
  assert.deepEqual(own.record.value, { exact: "Name: A to Z" });
  assert.equal(own.bound, "last"); // the control's final value, not one it passed
  assert.ok(new RegExp((own.record.target as { regex: string }).regex).test('select#sort[name=sort] "Featured"'));
  assert.ok(!new RegExp((own.record.target as { regex: string }).regex).test('select#sort-by "Featured"'));
  assert.deepEqual(opened.opened, { path: "/shop/products", query: { sort: "name" } });
  const typedUrl = s.attacks.find((a) => a.kind === "typed_url")!;
  assert.deepEqual(typedUrl.steps, [{ navigate: { url: "/shop/products?sort=name" } }]);
  assert.equal(typedUrl.reason, "method_missing");
  assert.ok(typedUrl.method); // under a goal it is another route
  // The witness: a URL was typed and the select never changed.
  assert.match(json(typedUrl.witness), /"event":\{"action":"navigate"\}.*"times":0/);
  // The select submits itself: no apply to leave out, and each key press loads the list, so no far keyboard route.
  assert.deepEqual(kinds(s), ["typed_url"]);
  assert.deepEqual(s.alternatives, []);
  const near = selectOption("#sort", "Price: low to high", { list: { path: "/p", query: { sort: "price_asc" } } }, {
    options: SORTS,
    from: "Featured",
  });
  assert.deepEqual(near.alternatives.map((a) => a.kind), ["keyboard"]);
});

Deno.test("a form control: Edit before, Save after; unfinished leaves the save out and its witness is no POST", () => {
  const place = {
    before: [{ click: { selector: "#edit-issue" } }],
    after: [{ click: { selector: "#save-issue" } }],
    saves: { method: "POST", path: "/tracker/issues/MOB-1/edit" },
  };
  const s = selectOption("#priority", "High", place, { options: ["Low", "Medium", "High", "Urgent"], from: "Low" });
  assert.deepEqual(s.steps.at(-1), { click: { selector: "#save-issue" } });
  const unfinished = s.attacks.find((a) => a.kind === "unfinished")!;
  assert.ok(!json(unfinished.steps).includes("#save-issue"));
  assert.equal(unfinished.reason, "field_mismatch");
  assert.match(
    json(unfinished.witness),
    /"request":\{"method":"POST","path":"\/tracker\/issues\/MOB-1\/edit"\},"times":0/,
  );
  // The keyboard: the select clicked, two keys down, Enter; then the save.
  const keys = s.alternatives[0].steps.map((x) => json(x));
  assert.equal(keys.filter((k) => k.includes("ArrowDown")).length, 2);
  assert.ok(keys.at(-1)!.includes("#save-issue"));
  assert.ok(!kinds(s).includes("typed_url")); // a POST form's value is in no URL
});

Deno.test("choose_from_combobox: a field filled by a link is no choice in its list (equivalent_control)", () => {
  const s = chooseFromCombobox({ box: "#to-combobox", label: "To" }, "Ada", "Ada Lovelace <ada@example.com>", {
    after: [{ click: { selector: "#send-button" } }],
    prefill: {
      steps: [{ navigate: { url: "/mail/contacts" } }, { click: { selector: "#write-3" } }],
      witness: { record: { action: "click", target: { contains: "#write-3" } } },
    },
  });
  const own = (s.method[0] as { record: { target: { regex: string }; value: unknown } }).record;
  assert.ok(new RegExp(own.target.regex).test('input "To"'));
  assert.ok(!new RegExp(own.target.regex).test('input#cc[name=cc] "Addresses separated by commas"'));
  const eq = s.attacks.find((a) => a.kind === "equivalent_control")!;
  assert.deepEqual(eq.steps.at(-1), { click: { selector: "#send-button" } }); // the rest of the form still sent
  assert.equal(eq.reason, "method_missing");
  // The witness: the prefill happened, and the To box never reported a choice.
  assert.match(json(eq.witness), /#write-3.*"times":0/);
  assert.deepEqual(s.alternatives.map((a) => a.kind), ["keyboard"]); // Enter on the first match
});

Deno.test("set_slider: on its scale; the other end is a route too; pick_date and radios have keyboard routes", () => {
  assert.throws(() => setSlider("#max-price", 155, { min: 0, max: 450, step: 10 }), /not on its scale/);
  const s = setSlider("#max-price", 40, { min: 0, max: 450, step: 10 });
  assert.equal(s.steps.filter((x) => json(x).includes("ArrowRight")).length, 4);
  // From the far end 41 presses would not fit an episode's 40 steps: one past the value from the near end, one back.
  const presses = (steps: readonly unknown[], key: string) => steps.filter((x) => json(x).includes(key)).length;
  assert.deepEqual([presses(s.alternatives[0].steps, "ArrowRight"), presses(s.alternatives[0].steps, "ArrowLeft")], [
    5,
    1,
  ]);
  const near = setSlider("#max-price", 40, { min: 0, max: 60, step: 10 }); // End and 2 presses; Home and 4 fit
  assert.equal(presses(near.alternatives[0].steps, "ArrowRight"), 4);
  assert.ok(json(near.alternatives[0].steps[1]).includes("Home"));
  assert.deepEqual(setSlider("#estimate", 20, { min: 0, max: 20, step: 1 }).alternatives, []); // one way to the end
  assert.equal(calendarClicks("#due_date", "2026-05-04", "2026-03-10").length, 4); // open, two months, the day
  const d = pickDate("#date", "2026-05-04", { shows: "2026-05-01", blur: "#purpose" });
  assert.deepEqual(d.alternatives[0].steps[0], { input: { selector: "#date", text: "2026-05-04", clear: true } });
  const r = chooseRadio(["#type-bug", "#type-feature", "#type-task"], "#type-bug", "bug");
  assert.deepEqual(r.alternatives[0].steps, [{ click: { selector: "#type-feature" } }, {
    send_keys: { keys: "ArrowUp" },
  }]);
  assert.deepEqual(
    (toggleCheckbox("#label-ui", false, "ui").method[0] as { record: { value: unknown } }).record.value,
    {
      exact: "",
    },
  );
});

Deno.test("a chain holding a macro twice names each segment's routes by its place (two radios of one form)", () => {
  const t = TEMPLATES.find((x) => x.id === "mail.choose_radio.menu_preferences")!;
  const db = seedDb("mail");
  const p = t.params(db).find((q) => t.build(q, db).solution.length === 4)!; // menu, two radios, save
  const names = t.alternatives!(p, db, "procedure").map((a) => a.name);
  assert.deepEqual(names.filter((n) => n.startsWith("choose_radio")), [
    "choose_radio_2_keyboard",
    "choose_radio_3_keyboard",
  ]);
});

Deno.test("a list form's value never applied: unfinished fails for the final page, or for `unsent` when given", () => {
  const list = { path: "/tracker/issues", query: { project: "WEB", priority: "high" }, submit: "#apply-filters" };
  const unfinished = (s: Segment) => s.attacks.find((a) => a.kind === "unfinished")!;
  assert.equal(unfinished(selectOption("#priority", "High", { list })).reason, "final_page");
  const export_ = unfinished(selectOption("#priority", "High", { list, unsent: "request_missing" }));
  assert.equal(export_.reason, "request_missing");
  assert.ok(!json(export_.steps).includes("#apply-filters")); // the apply button is never clicked
});
