import assert from "node:assert/strict";
import { conditionFailure } from "../../grading/mod.ts";
import type { Evidence } from "../../protocol/mod.ts";
import { seedDb } from "../data.ts";
import { styleOf } from "../template.ts";
import { TEMPLATES } from "../templates/mod.ts";
import { answerQuestion } from "./answer_question.ts";
import { copyToClipboard } from "./copy_to_clipboard.ts";
import { switchTab } from "./switch_tab.ts";

const BASE = "http://127.0.0.1:8000";

/** Evidence of an episode that answered `answer` having seen `screens` (text at a path each), nothing else done. */
const seenOnly = (answer: string, screens: [string, string][]): Evidence => ({
  base: BASE,
  log: [],
  changes: [],
  clip: [],
  events: [],
  record: [],
  answer,
  seen: screens.map(([, text]) => text),
  seen_urls: screens.map(([path]) => BASE + path),
});

/** The answer conditions of a template's first instance check under `style`. */
function answerChecks(id: string, style: "procedure" | "goal") {
  const t = TEMPLATES.find((x) => x.id === id)!;
  const db = seedDb(t.site);
  const [p] = t.params(db);
  const check = t.build(p, db, style).check as { all: Record<string, unknown>[] };
  return { p, t, answers: check.all.filter((c) => "answer" in c) };
}

Deno.test("answerQuestion(): seen on any screen under both styles; the page a procedure names binds it there", () => {
  const s = answerQuestion({
    answer: "7",
    matcher: { number: 7 },
    page: { path: "/mail/contacts/3" },
    read: [{ click: { selector: "#c3" } }],
    rival: "8",
  });
  assert.deepEqual(s.outcome, [{ answer: { number: 7 }, seen: true }]);
  assert.deepEqual(s.method, [{ answer: { number: 7 }, seen: { path: "/mail/contacts/3" } }]);
  assert.deepEqual(s.steps.at(-1), { done: { text: "7" } });
  assert.deepEqual(s.attacks.map((a) => [a.kind, a.reason, a.method]), [["extra_wrong", "answer_unaccounted", false]]);
  assert.deepEqual(s.attacks[0].steps.at(-1), { done: { text: "7 or 8" } });
  // A computed figure is shown nowhere: no seen binding, and the procedure's page is the one visited.
  const sum = answerQuestion({ answer: "66", matcher: { number: 66 }, computed: "a sum", page: { path: "/t/s/4" } });
  assert.deepEqual(sum.outcome, [{ answer: { number: 66 }, seen: false, why: "a sum" }]);
  assert.match(JSON.stringify(sum.method), /"visited"/);
});

Deno.test("a count read on a page the instruction never names passes a goal, and fails only a procedure naming it", () => {
  const id = "mail.answer_question.menu_contact_count";
  const goal = answerChecks(id, "goal");
  const proc = answerChecks(id, "procedure");
  const n = String(goal.p.n);
  // The figure shown on search results only (any page but the contact page).
  const ev = seenOnly(n, [[`/mail/search?q=x`, `Search results: ${n} messages`]]);
  for (const c of goal.answers) assert.equal(conditionFailure(c as never, ev), null, JSON.stringify(c));
  const failures = proc.answers.map((c) => conditionFailure(c as never, ev)).filter((f) => f !== null);
  assert.deepEqual(failures.map((f) => f!.code), ["not_seen"]);
  // The procedures that bind it name the contact page; the goals do not.
  for (const f of goal.t.phrasings) {
    const text = typeof f === "function" ? f(goal.p) : f.text(goal.p);
    assert.equal(/contact page|'s page/.test(text), styleOf(f) === "procedure", text);
  }
});

Deno.test("copyToClipboard(): the control bound to the clipboard; a direct write is a method attack, answering is not", () => {
  const s = copyToClipboard({
    control: "#copy-code",
    text: "BK-1",
    another: { steps: [{ click: { selector: "#x" } }], matcher: { exact: "BK-2" } },
  });
  assert.deepEqual(s.outcome, [{ clipboard: { exact: "BK-1" } }]);
  assert.deepEqual(s.method, [{
    record: { action: "click", target: { regex: "#copy-code(?![\\w-])" } },
    bound: "clipboard",
  }]);
  assert.deepEqual(s.attacks.map((a) => [a.kind, a.reason, a.method]), [
    ["equivalent_control", "method_missing", true],
    ["unfinished", "clipboard_mismatch", false],
    ["extra_wrong", "clipboard_mismatch", false],
  ]);
});

Deno.test("switchTab(): the tab strip comes from the app's page model; an app without it is named", () => {
  const s = switchTab("bookings", "upcoming", { path: "/bookings/my", query: { show: "upcoming" } }, "my");
  assert.deepEqual(s.steps, [{ click: { selector: "#show-upcoming" } }]);
  assert.deepEqual(s.attacks[0].steps, [{ navigate: { url: "/bookings/my?show=upcoming" } }]);
  assert.throws(() => switchTab("mail", "x", { path: "/mail/x" }), /app "mail" has no tab strip "main"/);
});

Deno.test("anotherYear(): the right day in the year before the task's is a near miss the answer rules fail", async () => {
  const { anotherYear } = await import("./answer_question.ts");
  const { decideStrictAnswer } = await import("../../grading/answer.ts");
  const m = anotherYear("2026-03-10");
  assert.equal(m.answer, "10 March (2025)");
  const d = decideStrictAnswer({ date: "2026-03-10" }, m.answer!, { instruction: "On which date did you place it?" });
  assert.equal(d.ok, false, JSON.stringify(d));
});
