/**
 * drag_and_drop: a card dragged into another column of a board (its status). Its method evidence is the drag of the
 * named card that ended on the target column (the drag's `value` is its drop zone). The card's own page, whose form
 * makes the same change, is its equivalent-control attack (a method attack: under a goal phrasing, which names only
 * the new status, it is another route).
 */
import type { ConditionJson } from "../template.ts";
import { typed } from "./evidence.ts";
import type { Segment } from "./macro.ts";
import { pageModel } from "./pages.ts";
import { targetOf } from "./search.ts";

/** What a drag_and_drop segment needs: the card, the column it goes to (and that column's label in the form). */
export interface DragOptions {
  /** The card's key (`MOB-15`). */
  card: string;
  /** The target column's value (`in_progress`). */
  to: string;
  /** The target column's label, as the card page's form lists it (`In progress`). */
  label: string;
  /** The change the move writes (the card's row, its new value): what the attack must also make. */
  change: ConditionJson;
}

/** The drag_and_drop segment on `site`. */
export function dragAndDrop(site: string, o: DragOptions): Segment {
  const board = pageModel(site).board;
  if (!board) throw new Error(`app "${site}" has no board in its page model`);
  const dragged = { action: "drag", target: { contains: o.card }, value: { contains: board.column(o.to) } };
  return {
    macro: "drag_and_drop",
    steps: [{ drag: { source: { selector: board.card(o.card) }, target: { selector: board.column(o.to) } } }],
    reached: [],
    method: [{ record: dragged }],
    attacks: [{
      kind: "equivalent_control",
      steps: [
        { navigate: { url: board.detail(o.card) } },
        { select_dropdown: { selector: board.select, text: o.label } },
        { click: { selector: board.submit } },
      ],
      reason: "method_missing",
      witness: {
        all: [typed, { record: { action: "click", target: targetOf(board.submit) } }, { ...o.change, ever: true }, {
          record: { action: "drag" },
          times: 0,
        }],
      },
      method: true,
    }],
    alternatives: [],
  };
}
