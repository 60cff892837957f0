/**
 * toggle_checkbox on a form (a label, a star, a flag, saved with the form; the list filters are filter.ts): the box's
 * own last `change` to the asked state is its method evidence; the form left unsaved is its unfinished attack.
 */
import type { ActionJson, ConditionJson } from "../template.ts";
import { type ControlPlace, controlSegment } from "./control.ts";
import { equivalentControl } from "./evidence.ts";
import type { Attack, Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/**
 * The toggle_checkbox segment: the box `box` (an id) clicked to `on` (ticked) or off; `value` is its value attribute
 * (what a ticked box's `change` reports; "on" when it has none).
 */
export function toggleCheckbox(box: string, on: boolean, value: string, place: ControlPlace = {}): Segment {
  return controlSegment({
    ...place,
    macro: "toggle_checkbox",
    target: targetOf(box),
    action: "change",
    value: { exact: on ? value : "" },
    steps: [{ click: { selector: box } }],
  });
}

/** What a toggle button needs: its form's POST, the steps that bring it into view, another control toggling the same. */
export interface ToggleButtonOptions {
  /** The path its form posts to. */
  posts: string;
  /** The steps before the click (the list's page that shows the button), kept by every attack. */
  before?: ActionJson[];
  /** Another control's steps (instead of `before` and the click) toggling the same state, and its written change. */
  equivalent?: { steps: ActionJson[]; witness: ConditionJson };
}

/**
 * toggle_checkbox on a toggle button (a star, `aria-pressed`), which posts its own form at each click: the click on
 * `button` (an id) and its form's POST are its method evidence. Its attacks: the button clicked twice, which toggles
 * the state back (`undo`, an outcome attack: the write asked for is undone); another control toggling the same
 * state (`equivalent_control`, a method attack: under a goal, another route).
 */
export function toggleButton(button: string, o: ToggleButtonOptions): Segment {
  const before = o.before ?? [];
  const click: ActionJson = { click: { selector: button } };
  const clicked = { action: "click", target: targetOf(button) };
  const posted = { request: { method: "POST", path: { exact: o.posts } } };
  const attacks: Attack[] = [{
    kind: "undo",
    steps: [...before, click, click],
    reason: "field_mismatch",
    witness: { ...posted, times: 2 },
    method: false,
  }];
  if (o.equivalent) {
    attacks.push(equivalentControl(o.equivalent.steps, o.equivalent.witness, { record: clicked, times: 0 }));
  }
  return {
    macro: "toggle_checkbox",
    steps: [...before, click],
    reached: [posted],
    method: [{ record: clicked }, posted],
    attacks,
    alternatives: [],
  };
}
