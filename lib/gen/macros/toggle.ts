/**
 * toggle_checkbox on a form (a label, a star, a flag, saved with the form; the list filters are filter.ts): the box's
 * own last `change` to the asked state is its method evidence; the form left unsaved is its unfinished attack.
 */
import { type ControlPlace, controlSegment } from "./control.ts";
import type { Segment } from "./macro.ts";
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
