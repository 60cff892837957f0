/**
 * choose_radio: one radio of a group checked. Its method evidence is the radio's own last `change` (checked, its
 * value); the arrow key from its neighbour in the group (focus moves and checks it) is its keyboard alternative.
 */
import type { ActionJson } from "../template.ts";
import { type ControlPlace, controlSegment } from "./control.ts";
import type { Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/** Checking the radio `group[i]` with the keyboard: its neighbour clicked, then the arrow key towards it. */
function arrowTo(group: readonly string[], i: number): ActionJson[] | undefined {
  if (group.length < 2) return undefined;
  const [from, key] = i > 0 ? [group[i - 1], "ArrowDown"] : [group[1], "ArrowUp"];
  return [{ click: { selector: from } }, { send_keys: { keys: key } }];
}

/**
 * The choose_radio segment: of the radios `group` (ids, in the page's order), `radio` checked; `value` is its value
 * attribute (what its `change` reports).
 */
export function chooseRadio(
  group: readonly string[],
  radio: string,
  value: string,
  place: ControlPlace = {},
): Segment {
  const i = group.indexOf(radio);
  if (i < 0) throw new Error(`radio ${radio} is not in its group (${group.join(", ")})`);
  return controlSegment({
    ...place,
    macro: "choose_radio",
    target: targetOf(radio),
    action: "change",
    value: { exact: value },
    steps: [{ click: { selector: radio } }],
    keyboard: arrowTo(group, i),
  });
}
