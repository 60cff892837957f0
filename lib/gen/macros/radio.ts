/**
 * choose_radio: one radio of a group checked. Its method evidence is the radio's own last `change` (checked, its
 * value); the arrow key from its neighbour in the group (focus moves and checks it) is its keyboard alternative.
 */
import type { ActionJson } from "../template.ts";
import { type ControlPlace, controlSegment } from "./control.ts";
import type { Segment } from "./macro.ts";
import { pageModel } from "./pages.ts";
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

/**
 * The choose_radio segment on the star rating widget `name` of `site`'s page model, for the item `key`, `n` stars
 * chosen. Its method evidence is a click on the widget and the widget's own request carrying `n` (nothing else sends
 * it: a typed URL cannot POST); the value its last click posts is the one the outcome sees. Tab (Shift+Tab) from the
 * neighbouring star and Enter is its keyboard alternative.
 */
export function chooseStars(site: string, name: string, key: string, n: number): Segment {
  const m = pageModel(site).ratings?.[name];
  if (!m) throw new Error(`app "${site}" has no rating widget ${name} in its page model`);
  if (!Number.isInteger(n) || n < 1 || n > m.max) throw new Error(`a rating of ${n} stars is not 1 to ${m.max}`);
  const from = n > 1 ? n - 1 : 2;
  const keys = n > 1 ? "Tab" : "Shift+Tab";
  return {
    macro: "choose_radio",
    steps: [{ click: { selector: m.button(n) } }],
    reached: [],
    method: [
      { record: { action: "click", target: targetOf(m.widget) } },
      { request: { method: "POST", path: m.posts(key), body: { [m.field]: String(n) } } },
    ],
    attacks: [],
    alternatives: [{
      kind: "keyboard",
      steps: [{ click: { selector: m.button(from) } }, { send_keys: { keys } }, { send_keys: { keys: "Enter" } }],
    }],
  };
}
