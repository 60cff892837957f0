/**
 * copy_to_clipboard: a value put on the clipboard by a copy control of the page. Its outcome, under both styles, is
 * the clipboard's final content. Its method evidence is a click on the named copy control that wrote that content
 * (`bound: "clipboard"`). Writing the clipboard directly is its equivalent-control attack (a method attack: under a
 * goal phrasing it is another route); giving the value as the answer without copying it, and copying another value
 * after the right one, fail under both styles.
 */
import type { ActionJson, ConditionJson } from "../template.ts";
import type { Attack, Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/** What a copy_to_clipboard segment needs. */
export interface CopyOptions {
  /** The named copy control's selector (an id). */
  control: string;
  /** The text the control writes. */
  text: string;
  /** The clipboard matcher of that text (default: exactly it). */
  matcher?: ConditionJson;
  /** Steps that copy another value after the right one, and that value's matcher. */
  another?: { steps: ActionJson[]; matcher: ConditionJson };
}

/** The copy_to_clipboard segment. */
export function copyToClipboard(o: CopyOptions): Segment {
  const want = o.matcher ?? { exact: o.text };
  const clicked = { action: "click", target: targetOf(o.control) };
  const noCopy = { record: { action: "click", target: { regex: "copy", flags: "i" } }, times: 0 };
  const attacks: Attack[] = [
    {
      kind: "equivalent_control",
      steps: [{ clipboard_write: { text: o.text } }],
      reason: "method_missing",
      witness: { all: [{ event: { action: "clipboard_write", value: { exact: o.text } } }, noCopy] },
      method: true,
    },
    {
      kind: "unfinished",
      steps: [{ done: { text: o.text } }],
      reason: "clipboard_mismatch",
      witness: {
        all: [{ event: { action: "answer", value: { exact: o.text } } }, noCopy, {
          event: { action: "clipboard_write" },
          times: 0,
        }],
      },
      method: false,
    },
  ];
  if (o.another) {
    attacks.push({
      kind: "extra_wrong",
      steps: [{ click: { selector: o.control } }, ...o.another.steps],
      reason: "clipboard_mismatch",
      witness: { all: [{ clipboard: want, ever: true }, { clipboard: o.another.matcher }] },
      method: false,
    });
  }
  return {
    macro: "copy_to_clipboard",
    steps: [{ click: { selector: o.control } }],
    reached: [],
    outcome: [{ clipboard: want }],
    method: [{ record: clicked, bound: "clipboard" }],
    attacks,
    alternatives: [],
  };
}
