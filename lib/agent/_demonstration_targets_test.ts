/**
 * A demonstration's drag ends on a page of boxes without a browser: points only at what is on screen, one scroll
 * that brings both ends on screen together first (the scroll row a model would write), and a clear refusal where
 * no scroll can. The real pages' cases are tests/demonstrations_test.ts's.
 */
import assert from "node:assert/strict";
import type { BrowserState } from "../browser/mod.ts";
import type { ReferenceStep } from "../tasks/mod.ts";
import { FakeSession } from "../../tests/support/fake_session.ts";
import { DemonstrationError, indexedAction } from "./_demonstration_targets.ts";

type Box = { top: number; bottom: number; left: number; right: number };

/** A page of boxes (document coordinates) in a 1280×720 viewport, scrolled by `scrollY` of at most `maxScroll`. */
class BoxPage extends FakeSession {
  constructor(readonly boxes: Record<string, Box>, public scrollY = 0, readonly maxScroll = 2000) {
    super({ "/": { title: "Board", elements: [{ tag: "a", text: "Board" }] } }, "/");
  }

  override evaluate<T>(expression: string): Promise<T> {
    const selectors = JSON.parse(/\(\(\) => \{ const boxes = (\[.*?\])\.map/.exec(expression)![1]) as string[];
    const boxes = selectors.map((s) => {
      const b = this.boxes[s];
      return b ? { ...b, top: b.top - this.scrollY, bottom: b.bottom - this.scrollY } : null;
    });
    return Promise.resolve({ boxes, width: 1280, height: 720, scrollY: this.scrollY, maxScroll: this.maxScroll } as T);
  }
}

const dragStep = (source: string, target: string): ReferenceStep => ({
  candidates: () => [{ drag: { source: { selector: source }, target: { selector: target } } }],
});

async function answer(page: BoxPage, step: ReferenceStep) {
  const state = { ...(await page.captureState()), screenshotFile: null } as BrowserState & { screenshotFile: null };
  return await indexedAction(step, state, page, true, "reference step 1");
}

/** Answers the step as the demonstration does, scrolling the page as each scroll answer says; the answers. */
async function demonstrateStep(page: BoxPage, step: ReferenceStep) {
  const answers = [];
  for (let i = 0; i < 3; i++) {
    const found = (await answer(page, step))!;
    answers.push(found.action);
    if (found.consumed) return answers;
    const { down, pixels } = (found.action as { scroll: { down: boolean; pixels: number } }).scroll;
    page.scrollY += down ? pixels : -pixels;
  }
  throw new Error(`no drag after 3 answers: ${JSON.stringify(answers)}`);
}

const item = (n: number): Box => ({ top: 248 + 52 * n, bottom: 292 + 52 * n, left: 110, right: 1170 });

Deno.test("a drag on screen points at its ends' centres on the 0-1000 grid", async () => {
  const page = new BoxPage({ "#a": item(0), "#b": item(3) });
  assert.deepEqual(await demonstrateStep(page, dragStep("#a", "#b")), [
    { drag: { source_x: 500, source_y: 375, target_x: 500, target_y: 592 } },
  ]);
});

Deno.test("an end whose top edge shows at the screen's foot is scrolled to first: its centre is not on screen", async () => {
  // Item 9: 716..760 in a 720 px viewport (the old rule counted it on screen, and refused the drag with no scroll).
  const page = new BoxPage({ "#src": item(9), "#dst": item(6) });
  const answers = await demonstrateStep(page, dragStep("#src", "#dst"));
  assert.equal(answers.length, 2);
  assert.deepEqual(Object.keys(answers[0]), ["scroll"]);
  const p = (answers[1] as { drag: Record<string, number> }).drag;
  for (const y of [p.source_y, p.target_y]) assert.ok(y > 0 && y < 1000, JSON.stringify(answers));
});

Deno.test("ends that fit on one screen only together take one scroll, not one per end", async () => {
  // 13 items apart (676 px between centres in 720): centring one end put the other off screen, back and forth.
  const page = new BoxPage({ "#top": item(0), "#bottom": item(13) });
  const answers = await demonstrateStep(page, dragStep("#bottom", "#top"));
  assert.equal(answers.length, 2, JSON.stringify(answers));
  const p = (answers[1] as { drag: Record<string, number> }).drag;
  assert.ok(p.target_y >= 0 && p.source_y <= 1000, JSON.stringify(p));
});

Deno.test("a drop zone taller than the screen is pointed at in its part on screen", async () => {
  const page = new BoxPage({
    "#card": { top: 700, bottom: 790, left: 120, right: 356 },
    "#col": { top: 248, bottom: 1900, left: 646, right: 902 },
  });
  const answers = await demonstrateStep(page, dragStep("#card", "#col"));
  const p = (answers.at(-1) as { drag: Record<string, number> }).drag;
  assert.ok(p.source_y > 0 && p.source_y < 1000 && p.target_y > 0 && p.target_y < 1000, JSON.stringify(answers));
});

Deno.test("ends farther apart than a screen are refused, saying they cannot both be on screen", async () => {
  const page = new BoxPage({ "#top": item(0), "#far": item(20) });
  await assert.rejects(
    answer(page, dragStep("#far", "#top")),
    (err: Error) =>
      err instanceof DemonstrationError &&
      /reference step 1: drag end "#far" is outside the viewport, and the drag's ends cannot both be on screen at once \(\d+ px apart in a 720 px viewport\)/
        .test(err.message),
  );
  // An end beyond where the page scrolls: no scroll brings it in.
  const short = new BoxPage({ "#top": item(0), "#below": item(11) }, 0, 100);
  await assert.rejects(answer(short, dragStep("#below", "#top")), /no scroll of the page brings it in/);
});
