/**
 * The free-text fields of a demonstration's target reply (thinking, evaluation of the previous goal, memory, next
 * goal), written deterministically from the action, the element it names and the macro of its segment: a
 * demonstration is the reference's, never a model's words.
 */
import type { DomElement } from "../dom/mod.ts";
import type { ActionCall } from "../protocol/mod.ts";

/** The segment a step belongs to: its macro and family, and where it is in the chain. */
export interface SegmentView {
  macro: string;
  family: string;
  /** From 0. */
  index: number;
  count: number;
}

/** What the previous step did, as the next reply's evaluation reads it. */
export interface PreviousStep {
  goal: string;
  ok: boolean;
}

/** The free-text fields of an agent reply. */
export interface ReplyText {
  thinking: string;
  evaluation_previous_goal: string;
  memory: string;
  next_goal: string;
}

/** `element 12 <button> "Add to cart"`, or `element 12` when the list does not have it. */
export function elementLabel(index: number, elements: readonly DomElement[]): string {
  const el = elements.find((e) => e.index === index);
  if (!el) return `element ${index}`;
  const a = el.attributes;
  const text = (el.text || a["aria-label"] || a.placeholder || a.name || "").replace(/\s+/g, " ").trim();
  return `element ${index} <${el.tag}>${text ? ` "${text.slice(0, 60)}"` : ""}`;
}

const quote = (s: unknown) => JSON.stringify(String(s ?? ""));
const at = (p: Record<string, unknown>, x: string, y: string) => `(${p[x]}, ${p[y]})`;

/** What an action (in the model's index/coordinate form) is meant to do, in a sentence. */
export function actionGoal(action: ActionCall, elements: readonly DomElement[], segment: SegmentView): string {
  const [name, raw] = Object.entries(action)[0] ?? ["", {}];
  const p = (raw ?? {}) as Record<string, unknown>;
  const el = (i: unknown) => elementLabel(Number(i), elements);
  const target = p.index !== undefined ? el(p.index) : at(p, "coordinate_x", "coordinate_y");
  switch (name) {
    case "click":
      return `Click ${target}`;
    case "hover":
      return `Move the mouse over ${target}`;
    case "input":
      return `Type ${quote(p.text)} into ${el(p.index)}`;
    case "select_dropdown":
      return `Select ${quote(p.text)} in ${el(p.index)}`;
    case "dropdown_options":
      return `Read the options of ${el(p.index)}`;
    case "send_keys":
      return p.keys !== undefined ? `Press ${p.keys}` : `Type ${quote(p.text)}`;
    case "navigate":
      return `Open ${p.url}`;
    case "scroll":
      return `Scroll ${p.down === false ? "up" : "down"}${p.index !== undefined ? ` in ${el(p.index)}` : ""}`;
    case "upload_file":
      return `Upload ${p.path} to ${el(p.index)}`;
    case "drag": {
      const from = p.source_index !== undefined ? el(p.source_index) : at(p, "source_x", "source_y");
      const to = p.target_index !== undefined ? el(p.target_index) : at(p, "target_x", "target_y");
      return `Drag ${from} onto ${to}`;
    }
    case "done":
      return `Finish the task and answer ${quote(p.text)}`;
    case "macro_done":
      return `The ${segment.macro} part is finished: hand over to the next part`;
    default:
      return `Do ${name} ${JSON.stringify(p)}`;
  }
}

/** The reply's free text for `goal` (empty fields when `empty`). */
export function replyText(
  goal: string,
  segment: SegmentView,
  previous: PreviousStep | undefined,
  empty: boolean,
): ReplyText {
  if (empty) return { thinking: "", evaluation_previous_goal: "", memory: "", next_goal: "" };
  const part = `Part ${segment.index + 1} of ${segment.count}: ${segment.macro} (${segment.family}).`;
  const evaluation = previous === undefined
    ? "Start: nothing done yet."
    : `${previous.ok ? "Success" : "Failed"}: ${previous.goal}.`;
  return { thinking: `${part} Next: ${goal}.`, evaluation_previous_goal: evaluation, memory: part, next_goal: goal };
}
