/**
 * select_option: an option chosen in a native select. Its method evidence is the select's own last `select` event
 * naming the option (and, on a list form, the list it opened); a typed `?sort=` URL is its attack, the arrow keys on
 * the focused select its keyboard alternative.
 */
import type { ActionJson } from "../template.ts";
import { type ControlPlace, controlSegment } from "./control.ts";
import type { Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/**
 * The keys that move a select (`select` an id) from the option `from` to `to` of `options`, in order: the select
 * clicked (its list opens), the arrow keys, Enter.
 */
export function selectKeys(select: string, options: readonly string[], from: string, to: string): ActionJson[] {
  const n = options.indexOf(to) - options.indexOf(from);
  if (options.indexOf(to) < 0 || options.indexOf(from) < 0) {
    throw new Error(`select ${select}: "${from}" or "${to}" is not one of its options (${options.join(", ")})`);
  }
  return [
    { click: { selector: select } },
    ...Array.from({ length: Math.abs(n) }, () => ({ send_keys: { keys: n > 0 ? "ArrowDown" : "ArrowUp" } })),
    { send_keys: { keys: "Enter" } },
  ];
}

/**
 * The select_option segment: the select `select` (an id) set to the option whose text is `option`. `keys`: its options
 * in order and the one it shows before, for the keyboard alternative. On a list whose select submits itself (no apply
 * button) each key press loads the list, so the keys reach only the option next to the current one.
 */
export function selectOption(
  select: string,
  option: string,
  place: ControlPlace = {},
  keys?: { options: readonly string[]; from: string },
): Segment {
  const submitsItself = place.list !== undefined && place.list.submit === undefined;
  const far = keys && Math.abs(keys.options.indexOf(option) - keys.options.indexOf(keys.from)) > 1;
  return controlSegment({
    ...place,
    macro: "select_option",
    target: targetOf(select),
    action: "select",
    value: { exact: option },
    steps: [{ select_dropdown: { selector: select, text: option } }],
    keyboard: keys && !(submitsItself && far) ? selectKeys(select, keys.options, keys.from, option) : undefined,
  });
}
