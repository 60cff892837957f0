/**
 * choose_from_combobox: an option chosen in a custom combobox's list (lib/sites/page/widgets.ts: `[data-combobox]`,
 * a text box over a filtered listbox). Its method evidence is the combobox's own last `change` to the option (the
 * widget reports a choice from its list, by mouse or Enter, and nothing else): a field prefilled by a link elsewhere
 * (a contact page's "Write an email") is not a choice in the list, whatever it holds. Enter on the first match is its
 * keyboard alternative.
 */
import type { ActionJson } from "../template.ts";
import { type ControlPlace, controlSegment } from "./control.ts";
import { esc } from "./evidence.ts";
import type { Segment } from "./macro.ts";

/** A combobox on a page: the wrapper's selector (an id) and the label its text box carries (`data-label`). */
export interface ComboboxModel {
  /** The wrapper's selector (`#to-combobox`). */
  box: string;
  /** The text box's accessible label (the recorder names the box by it: `input "To"`). */
  label: string;
}

/** The text box of a combobox. */
export const comboInput = (c: ComboboxModel): string => `${c.box} input[role=combobox]`;

/**
 * The choose_from_combobox segment: in the combobox `c`, `typed` typed to filter the list (it must leave `option`
 * first: Enter picks the first match), then the option clicked in the list; its `change` reports `option`.
 */
export function chooseFromCombobox(c: ComboboxModel, typed: string, option: string, place: ControlPlace = {}): Segment {
  const input = comboInput(c);
  const filter: ActionJson[] = [{ click: { selector: input } }, { input: { selector: input, text: typed } }];
  return controlSegment({
    ...place,
    macro: "choose_from_combobox",
    target: { regex: `^input\\b[^"]*"${esc(c.label)}"` },
    // A choice made within 400 ms of typing reaches the recorder as the typing's end (`input`, with the chosen
    // value), else as a `change`: either is the box's own event. A link that fills the field in makes neither.
    action: { regex: "^(change|input)$" },
    value: { exact: option },
    steps: [...filter, { click: { selector: `${c.box} li[role=option]` } }],
    keyboard: [...filter, { send_keys: { keys: "Enter" } }],
  });
}
