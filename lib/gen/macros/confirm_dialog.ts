/**
 * confirm_dialog: a control whose form asks for confirmation (`data-confirm`) before it submits. Its method evidence
 * is a click on the named control and the form's own request (which the page sends only once the dialog is
 * accepted); another control with the same end state (Move to folder → Trash for Delete) is its equivalent-control
 * attack, a method attack: under a goal phrasing it is another route.
 */
import type { ActionJson, ConditionJson } from "../template.ts";
import type { Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/** What a confirm_dialog segment needs: the control, the request its confirmed form sends, an equivalent route. */
export interface ConfirmOptions {
  /** The named control's selector (an id). */
  control: string;
  /** The path its form posts to once the dialog is accepted. */
  posts: string;
  /** Another control's steps reaching the same end state, with the condition that shows it did (none: no attack). */
  equivalent?: { steps: ActionJson[]; outcome: ConditionJson };
}

/** The confirm_dialog segment. */
export function confirmDialog(o: ConfirmOptions): Segment {
  const clicked = { action: "click", target: targetOf(o.control) };
  return {
    macro: "confirm_dialog",
    steps: [{ click: { selector: o.control } }],
    reached: [],
    method: [{ record: clicked }, { request: { method: "POST", path: o.posts } }],
    attacks: o.equivalent
      ? [{
        kind: "equivalent_control",
        steps: o.equivalent.steps,
        reason: "method_missing",
        witness: { all: [o.equivalent.outcome, { record: clicked, times: 0 }] },
        method: true,
      }]
      : [],
    alternatives: [],
  };
}
