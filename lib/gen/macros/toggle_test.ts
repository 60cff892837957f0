import assert from "node:assert/strict";
import { toggleButton } from "./toggle.ts";

Deno.test("toggleButton: the click and its form's POST are the method; clicked twice is an outcome attack (undo)", () => {
  const s = toggleButton("#star-4", { posts: "/mail/messages/4/star", before: [{ click: { selector: "#page-2" } }] });
  assert.deepEqual(s.steps, [{ click: { selector: "#page-2" } }, { click: { selector: "#star-4" } }]);
  assert.deepEqual(s.method.at(-1), { request: { method: "POST", path: { exact: "/mail/messages/4/star" } } });
  const undo = s.attacks.find((a) => a.kind === "undo")!;
  assert.equal(undo.method, false);
  assert.deepEqual(undo.steps.slice(-2), [{ click: { selector: "#star-4" } }, { click: { selector: "#star-4" } }]);
  assert.deepEqual(undo.witness, { request: { method: "POST", path: { exact: "/mail/messages/4/star" } }, times: 2 });
  assert.ok(!s.attacks.some((a) => a.kind === "equivalent_control"));
});

Deno.test("toggleButton: another control toggling the same state is a method attack, the button never clicked", () => {
  const s = toggleButton("#star-4", {
    posts: "/mail/messages/4/star",
    equivalent: { steps: [{ click: { selector: "#star-toggle" } }], witness: { logged_in: true } },
  });
  const other = s.attacks.find((a) => a.kind === "equivalent_control")!;
  assert.equal(other.method, true);
  assert.deepEqual(other.witness, {
    all: [{ logged_in: true }, { record: { action: "click", target: { regex: "#star-4(?![\\w-])" } }, times: 0 }],
  });
});
