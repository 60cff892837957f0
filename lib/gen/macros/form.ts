/**
 * The form macros (compose_text, submit_form, edit_inline, upload_file): fields typed into a form, files chosen, the
 * form submitted. Their method evidence is each listed field's own last input holding its value (the field itself
 * produced it, not another control or a pre-filled value), each file input's own last choice naming its file, and the
 * submit (its button, or Enter in a field). Their
 * attacks: the form left unsubmitted (`unfinished`) and a field nobody listed filled too (`extra_wrong`), both outcome
 * attacks; another form writing the same value (`equivalent_control`, a method attack); a typed URL cannot send a
 * form's POST, so `typed_url` does not apply. Their alternatives: Enter in a
 * one-line field for the button, and the fields filled in another order (the order the Tab key would not take).
 */
import type { Macro, ReasonCode } from "../../protocol/mod.ts";
import type { ActionJson, ConditionJson } from "../template.ts";
import { equivalentControl, esc } from "./evidence.ts";
import type { Alternative, Attack, Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/** A field typed into: its selector (an id) and the text. */
export interface FormField {
  selector: string;
  text: string;
}

/** What a form segment needs. */
export interface FormOptions {
  /** The macro. */
  macro: Extract<Macro, "compose_text" | "submit_form" | "edit_inline" | "upload_file">;
  /** The steps that show the form (a Reply link, an Edit button); none: it is on the page. */
  open?: ActionJson[];
  /** The clicks that set the form's other controls first (a rating's radio button); the outcome checks their values. */
  set?: ActionJson[];
  /** The fields to type, in the form's order (none: its `set` clicks fill it, and its POST is its submit's evidence). */
  fields: readonly FormField[];
  /** Files to choose: the file input's selector (an id) and the upload's name. */
  files?: readonly { selector: string; path: string }[];
  /** The submit button's selector (an id). */
  submit: string;
  /** The path the form posts to (a regular expression). */
  posts: string;
  /** A one-line field in which Enter submits the form (absent: none, the last field is a text area). */
  enter?: string;
  /**
   * A field the instruction does not list, set as well: the steps that set it (before the submit), and the condition
   * that shows the written row took it (the row's other fields as asked).
   */
  extra?: { steps: ActionJson[]; witness: ConditionJson };
  /** The reason a check fails when the form was not submitted (default: its write is missing, field_mismatch). */
  unsent?: ReasonCode;
  /**
   * Another form writing the same value (an issue's full edit form for its inline title editor): its steps instead of
   * this form's, and the condition that shows the value written. An equivalent-control attack: under a goal phrasing,
   * another route.
   */
  equivalent?: { steps: ActionJson[]; witness: ConditionJson };
}

/** The steps that type `fields` and choose `files`. */
const filled = (fields: readonly FormField[], files: FormOptions["files"] = []): ActionJson[] => [
  ...fields.map((f) => ({ input: { selector: f.selector, text: f.text } })),
  ...files.map((f) => ({ upload_file: { selector: f.selector, path: f.path } })),
];

/** The field's own last input holds `text` (as the app reads it: trimmed, any case). */
export const typedInto = (f: FormField): ConditionJson => ({
  record: { action: "input", target: targetOf(f.selector), value: { norm: f.text } },
  bound: "last",
});

/** The file input's own last choice names the file. */
const chosenIn = (f: { selector: string; path: string }): ConditionJson => ({
  record: { action: "upload", target: targetOf(f.selector), value: { contains: f.path } },
  bound: "last",
});

/** The form's POST: only a submit of the form sends it (a typed URL cannot). */
const posted = (o: FormOptions): ConditionJson => ({ request: { method: "POST", path: { regex: o.posts } } });

/**
 * The form submitted: its button clicked, or Enter pressed in one of its fields; a form with no field to type (a
 * package and a counter set with clicks, in a frame the recorder does not see) is submitted when it posts.
 */
const submitted = (o: FormOptions): ConditionJson =>
  o.fields.length === 0 ? posted(o) : ({
    any: [
      { record: { action: "click", target: targetOf(o.submit) } },
      {
        record: {
          action: "key",
          value: "Enter",
          target: { regex: o.fields.map((f) => targetOf(f.selector).regex).join("|") },
        },
      },
    ],
  });

/** The form's attacks: left unsubmitted, and a field nobody listed filled too. */
function formAttacks(o: FormOptions): Attack[] {
  const open = [...(o.open ?? []), ...(o.set ?? [])];
  const last = o.fields.at(-1);
  const attacks: Attack[] = [{
    kind: "unfinished",
    steps: [...open, ...filled(o.fields, o.files)],
    reason: o.unsent ?? "field_mismatch",
    witness: {
      all: [
        ...(last ? [{ record: { action: "input", target: targetOf(last.selector) } }] : []),
        { ...posted(o), times: 0 },
      ],
    },
    method: false,
  }];
  if (o.equivalent) {
    if (!last) throw new Error(`${o.macro}: an equivalent control needs a typed field it leaves untouched`);
    const untouched = { record: { action: "input", target: targetOf(last.selector) }, times: 0 };
    attacks.push(equivalentControl(o.equivalent.steps, o.equivalent.witness, untouched));
  }
  if (o.extra) {
    attacks.push({
      kind: "extra_wrong",
      steps: [...open, ...filled(o.fields, o.files), ...o.extra.steps, { click: { selector: o.submit } }],
      reason: "field_mismatch",
      witness: o.extra.witness,
      method: false,
    });
  }
  return attacks;
}

/** The form's alternatives: Enter for the button; the fields in the reverse order. */
function formAlternatives(o: FormOptions): Alternative[] {
  const open = [...(o.open ?? []), ...(o.set ?? [])];
  const alternatives: Alternative[] = [];
  if (o.enter) {
    const enter = o.fields.find((f) => f.selector === o.enter)!;
    const others = o.fields.filter((f) => f !== enter);
    alternatives.push({
      kind: "keyboard",
      steps: [...open, ...filled([...others, enter], o.files), { send_keys: { keys: "Enter" } }],
    });
  }
  if (o.fields.length > 1) {
    alternatives.push({
      kind: "other_route",
      steps: [...open, ...filled([...o.fields].reverse(), o.files), { click: { selector: o.submit } }],
    });
  }
  return alternatives;
}

/** A form segment: the fields typed, the files chosen, the form submitted. */
export function formSegment(o: FormOptions): Segment {
  if (o.fields.length === 0 && !o.set?.length) throw new Error(`a ${o.macro} segment needs a field to type or set`);
  return {
    macro: o.macro,
    steps: [...(o.open ?? []), ...(o.set ?? []), ...filled(o.fields, o.files), { click: { selector: o.submit } }],
    reached: [posted(o)],
    method: [...o.fields.map(typedInto), ...(o.files ?? []).map(chosenIn), submitted(o)],
    attacks: formAttacks(o),
    alternatives: formAlternatives(o),
  };
}

/** A POST path's regular expression: `path` itself. */
export const postPath = (path: string): string => `^${esc(path)}$`;
