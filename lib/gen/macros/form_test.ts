import assert from "node:assert/strict";
import { seedDb } from "../data.ts";
import { TEMPLATES } from "../templates/mod.ts";
import { authenticateByForm } from "./authenticate.ts";
import { formSegment, postPath } from "./form.ts";

const contact = () =>
  formSegment({
    macro: "submit_form",
    fields: [{ selector: "#contact-name", text: "Ann Lee" }, { selector: "#contact-email", text: "ann@x.example" }],
    submit: "#add-contact-button",
    posts: postPath("/mail/contacts"),
    enter: "#contact-email",
    extra: { steps: [{ input: { selector: "#contact-phone", text: "1" } }], witness: { logged_in: true } },
  });

Deno.test("formSegment: unfinished never submits, extra_wrong sets the unlisted field before the submit", () => {
  const s = contact();
  const unfinished = s.attacks.find((a) => a.kind === "unfinished")!;
  assert.ok(!JSON.stringify(unfinished.steps).includes("#add-contact-button"));
  assert.equal(unfinished.method, false);
  const extra = s.attacks.find((a) => a.kind === "extra_wrong")!;
  assert.deepEqual(extra.steps.slice(-2), [
    { input: { selector: "#contact-phone", text: "1" } },
    { click: { selector: "#add-contact-button" } },
  ]);
  // Each listed field's own last input is method evidence; a typed URL is no attack of a form.
  assert.equal(s.method.filter((c) => (c as { bound?: string }).bound === "last").length, 2);
  assert.ok(!s.attacks.some((a) => a.kind === "typed_url"));
});

Deno.test("formSegment: Enter in the one-line field for the button, and the fields in the reverse order, are alternatives", () => {
  const [keyboard, order] = contact().alternatives;
  assert.deepEqual(keyboard.steps.at(-1), { send_keys: { keys: "Enter" } });
  assert.deepEqual(keyboard.steps.at(-2), { input: { selector: "#contact-email", text: "ann@x.example" } });
  assert.deepEqual(order.steps.slice(0, 2).map((s) => (s.input as { selector: string }).selector), [
    "#contact-email",
    "#contact-name",
  ]);
});

Deno.test("authenticate_by_form as a prefix: its unfinished attack ends the chain, its sign-in is checked in both styles", () => {
  const t = TEMPLATES.find((x) => x.id === "mail.open_detail.login_open_message")!;
  const db = seedDb("mail");
  const [p] = t.params(db);
  const unfinished = t.nearMisses(p, db, "goal").find((m) => m.name === "authenticate_by_form_unfinished")!;
  assert.deepEqual(unfinished.steps, authenticateByForm().attacks[0].steps); // nothing of the chain after it
  for (const style of ["procedure", "goal"] as const) {
    const check = JSON.stringify(t.build(p, db, style).check);
    assert.ok(check.includes('"logged_in":true') && check.includes('"path":{"exact":"/login"}'), style);
  }
});

Deno.test("formSegment: a form with nothing to type is submitted when it posts; with nothing to type or set it is an error", () => {
  const s = formSegment({
    macro: "submit_form",
    set: [{ click: { selector: "#package-lunch" } }],
    fields: [],
    submit: "#order",
    posts: postPath("/x/orders"),
  });
  const post = { request: { method: "POST", path: { regex: "^/x/orders$" } } };
  assert.deepEqual(s.method, [post]);
  const unfinished = s.attacks.find((a) => a.kind === "unfinished")!;
  assert.deepEqual(unfinished.steps, [{ click: { selector: "#package-lunch" } }]);
  assert.deepEqual(unfinished.witness, { all: [{ ...post, times: 0 }] });
  assert.deepEqual(s.alternatives, []);
  assert.throws(
    () => formSegment({ macro: "submit_form", fields: [], submit: "#order", posts: postPath("/x/orders") }),
    /needs a field to type or set/,
  );
});

Deno.test("formSegment: another form writing the value is a method attack whose witness needs the field untouched", () => {
  const s = formSegment({
    macro: "edit_inline",
    open: [{ click: { selector: "#edit-title" } }],
    fields: [{ selector: "#title-input", text: "New" }],
    submit: "#save-title",
    posts: postPath("/tracker/issues/WEB-1/title"),
    equivalent: { steps: [{ click: { selector: "#save-issue" } }], witness: { logged_in: true } },
  });
  const other = s.attacks.find((a) => a.kind === "equivalent_control")!;
  assert.equal(other.method, true);
  assert.equal(other.reason, "method_missing");
  assert.deepEqual(other.steps, [{ click: { selector: "#save-issue" } }]);
  assert.deepEqual(other.witness, {
    all: [{ logged_in: true }, {
      record: { action: "input", target: { regex: "#title-input(?![\\w-])" } },
      times: 0,
    }],
  });
  assert.ok(!contact().attacks.some((a) => a.kind === "equivalent_control"));
});
