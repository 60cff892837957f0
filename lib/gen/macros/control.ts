/**
 * The form controls of Discrete selection (select_option, set_slider, choose_radio, pick_date, choose_from_combobox,
 * toggle_checkbox on a form), written once: a control set to a value. Its method evidence is the control itself
 * producing the value: the control's own last change to it (`bound: "last"`), and on a list form (a GET form: a sort,
 * a slider filter) the change or the form's apply button opening the list with it. Not a typed URL, not a field filled
 * in by another control or link (a prefilled To field), not an equivalent control.
 */
import type { Macro, ReasonCode } from "../../protocol/mod.ts";
import type { ActionJson, ConditionJson } from "../template.ts";
import { queryString, typed } from "./evidence.ts";
import type { Alternative, Attack, Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/** The list a GET form's control opens: the whole query it leaves, and the apply button (none: it submits itself). */
export interface ListTarget {
  /** The list's path. */
  path: string;
  /** The list's whole query after the change. */
  query: Readonly<Record<string, string | string[]>>;
  /** The apply button's selector (absent: the control submits its form on change). */
  submit?: string;
}

/** Another way of filling the field without the control (a link that prefills it): an equivalent-control attack. */
export interface Prefill {
  /** The steps instead of the control's (the chain's later steps stay). */
  steps: ActionJson[];
  /** Holds when the field was filled that way. */
  witness: ConditionJson;
  /** The other control finishes the act itself (Delete for Move to Trash): no save after it. */
  ends?: boolean;
}

/** A control set to a value, as a macro's segment reads it. */
export interface ControlOptions {
  /** The macro. */
  macro: Macro;
  /** The control's recorder target (`targetOf("#sort")`, or the combobox's `input "To"`). */
  target: { regex: string };
  /** The recorder action its value is reported with: `select` (a native select), else `change`. */
  action: "select" | "change" | { regex: string };
  /** The value the control's event reports when it holds the asked value. */
  value: ConditionJson;
  /** The steps that set the control (mouse). */
  steps: ActionJson[];
  /** The steps before the control (open the edit form), kept by every attack and alternative. */
  before?: ActionJson[];
  /** The steps after it (save the form), kept by every alternative; left out by the `unfinished` attack. */
  after?: ActionJson[];
  /** The request the form's save sends (with `after`): its absence witnesses an unfinished form. */
  saves?: { method: string; path: string };
  /** The GET list the value is applied to (a filter or sort form). */
  list?: ListTarget;
  /** The value set with the keyboard (a legitimate alternative under both styles). */
  keyboard?: ActionJson[];
  /** A link or another control filling the field instead (an equivalent-control attack). */
  prefill?: Prefill;
  /**
   * Why the chain fails when a list form's value is set and never applied (default: the final page, the list without
   * it); a later segment acting on the list (an export) fails first for its request.
   */
  unsent?: ReasonCode;
}

/** Where a control sits in a chain: the steps around it, its save, the list it applies to, a prefill route. */
export type ControlPlace = Pick<ControlOptions, "before" | "after" | "saves" | "list" | "prefill" | "unsent">;

/** The recorder event of the control holding its value. */
const setTo = (o: ControlOptions) => ({ action: o.action, target: o.target, value: o.value });

/** The list it opens: the control's own event or its form's apply button was the last action before the load. */
function openedBy(o: ControlOptions, list: ListTarget): ConditionJson {
  const by = list.submit ? `${o.target.regex}|${targetOf(list.submit).regex}` : o.target.regex;
  return {
    record: { action: { regex: "^(click|key|select|change)$" }, target: { regex: by } },
    opened: { path: list.path, query: list.query },
  };
}

/** The standard attacks that apply to a control. */
function attacksOf(o: ControlOptions, untouched: ConditionJson): Attack[] {
  const out: Attack[] = [];
  if (o.list) {
    out.push({
      kind: "typed_url",
      steps: [...(o.before ?? []), { navigate: { url: o.list.path + queryString(o.list.query) } }],
      reason: "method_missing",
      witness: { all: [typed, untouched] },
      method: true,
    });
  }
  if (o.list?.submit) {
    out.push({
      kind: "unfinished",
      steps: [...(o.before ?? []), ...o.steps],
      reason: o.unsent ?? "final_page",
      witness: {
        all: [{ record: setTo(o) }, { request: { method: "GET", path: o.list.path, query: o.list.query }, times: 0 }],
      },
      method: false,
    });
  }
  if (o.saves && o.after?.length) {
    out.push({
      kind: "unfinished",
      steps: [...(o.before ?? []), ...o.steps],
      reason: "field_mismatch",
      witness: { all: [{ record: setTo(o) }, { request: { ...o.saves }, times: 0 }] },
      method: false,
    });
  }
  if (o.prefill) {
    out.push({
      kind: "equivalent_control",
      steps: [...o.prefill.steps, ...(o.prefill.ends ? [] : o.after ?? [])],
      reason: "method_missing",
      witness: { all: [o.prefill.witness, untouched] },
      method: true,
    });
  }
  return out;
}

/** The segment of a control set to a value (the macros' files name the control and its value). */
export function controlSegment(o: ControlOptions): Segment {
  const submit: ActionJson[] = o.list?.submit ? [{ click: { selector: o.list.submit } }] : [];
  const around = (steps: ActionJson[]) => [...(o.before ?? []), ...steps, ...submit, ...(o.after ?? [])];
  const untouched: ConditionJson = { record: { action: o.action, target: o.target }, times: 0 };
  const alternatives: Alternative[] = o.keyboard ? [{ kind: "keyboard", steps: around(o.keyboard) }] : [];
  return {
    macro: o.macro,
    steps: around(o.steps),
    reached: o.list ? [{ request: { method: "GET", path: o.list.path, query: o.list.query } }] : [],
    method: [{ record: setTo(o), bound: "last" }, ...(o.list ? [openedBy(o, o.list)] : [])],
    attacks: attacksOf(o, untouched),
    alternatives,
  };
}
