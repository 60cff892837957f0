/**
 * What a task template is (docs/generation.md): a macro on one app, the parameters it can take (read from the
 * app's own seeded data), how to phrase it, the check, answer and reference solution it implies, and the near
 * misses that must fail it. The generator (generate.ts) instantiates templates; the proof (prove.ts) runs every
 * instance before it is shipped.
 */
import type { AppDb } from "../sites/mod.ts";
import type { Macro, ReasonCode } from "../protocol/mod.ts";
import type { Alternative, AttackKind, Style } from "./macros/macro.ts";

/** A JSON value: parameters, checks, actions and witnesses are data, validated by the task loader. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** One instance's parameters: a flat record of JSON scalars (it becomes the task's `option`). */
export type Params = Record<string, string | number | boolean>;

/** One action of the action language, `{name: params}` (docs/tasks.md, "Actions"); the task loader checks it. */
export type ActionJson = Record<string, unknown>;

/** A condition or check of the grading language (docs/grading.md); the task loader checks it. */
export type ConditionJson = Record<string, unknown>;

/** What a template builds for one instance, besides its instruction. */
export interface Built {
  /** The start page (a path on the site server), setup actions and login state. */
  start: { url: string; setup?: ActionJson[]; logged_out?: boolean };
  /** The backend gate. */
  check: ConditionJson;
  /** The reference solution, ending with `done` (its text is the answer of a reasoning task). */
  solution: ActionJson[];
}

/** The categories of docs/grading.md's near-miss table that a generated near miss may fall in. */
export type NearMissCategory =
  | "overshoot"
  | "collateral"
  | "unlisted_field"
  | "hedge"
  | "wrong_item"
  | "wrong_method"
  | "reverted";

/**
 * A plausible agent's mistake on one instance: it must fail with `reason`, and `witness` (a condition over the
 * episode's evidence) must hold, proving the deviation really happened.
 */
export interface NearMiss {
  /** Unique within the instance: lower-case letters, digits and `_`. */
  name: string;
  /** The kind of mistake (docs/grading.md's near-miss table). */
  category: NearMissCategory;
  /** The actions instead of the reference solution (exclusive with after_reference); a done is added. */
  steps?: ActionJson[];
  /** The reference solution without its final done, then these actions. */
  after_reference?: ActionJson[];
  /** The final answer (done's text); absent: the reference's. */
  answer?: string;
  /** The reason code the grade must carry. */
  reason: ReasonCode;
  /** Holds on the evidence only when the deviation happened. */
  witness: ConditionJson;
  /** A macro layer's standard attack (docs/generation.md): which macro's, and which kind; absent for the template's own. */
  attack?: { macro: Macro; kind: AttackKind };
}

/** A legitimate route of one instance (from the macro layer): the instance must pass with it. */
export interface AlternativeRoute {
  /** Unique within the instance: lower-case letters, digits and `_`. */
  name: string;
  /** The macro whose alternative it is. */
  macro: Macro;
  /** Which kind of alternative. */
  kind: Alternative["kind"];
  /** The actions instead of the reference solution; a done is added. */
  steps: ActionJson[];
}

/**
 * A phrasing of the instruction: a bare function asks procedurally (it names the controls; every template written
 * before styles), `{style, text}` says which it is (docs/generation.md, "Styles").
 */
export type Phrasing<P> = ((p: P) => string) | { style: Style; text: (p: P) => string };

/** The text of phrasing `f` on `p`. */
export const phrase = <P>(f: Phrasing<P>, p: P): string => typeof f === "function" ? f(p) : f.text(p);

/** The style of phrasing `f`: a bare function is a procedure. */
export const styleOf = <P>(f: Phrasing<P>): Style => typeof f === "function" ? "procedure" : f.style;

/** A task template; `P` is its parameter record. */
export interface Template<P extends Params = Params> {
  /** `site.macro.name`, unique: lower-case letters, digits, `_` and dots. */
  id: string;
  /** The app it runs on. */
  site: string;
  /** The task's own macro. */
  macro: Macro;
  /** The macros the agent does first (0 to 2): a mid-chain start, as the seed's datagen tasks have. */
  prefix?: readonly Macro[];
  /** What it asks, in a few words, for docs and the README's capacity table. */
  summary: string;
  /**
   * Every parameter record the template can take, in a fixed order, read from the app's seeded data (`db`, read
   * only). The generator samples from it without repetition: its length is the template's capacity.
   */
  params(db: AppDb): P[];
  /** The entity an instance is about (`product:11`): the split keeps each entity of a template in one split. */
  entity(p: P): string;
  /** Two or more phrasings of the instruction. */
  phrasings: readonly Phrasing<P>[];
  /** The start, check and reference solution of an instance, for a phrasing of `style` (default procedure). */
  build(p: P, db: AppDb, style?: Style): Built;
  /** Two or more near misses of an instance (the right action on a sibling, a collateral write, an overshoot, ...). */
  nearMisses(p: P, db: AppDb, style?: Style): NearMiss[];
  /** The legitimate other routes of an instance (the macro layer's alternatives): each must pass. */
  alternatives?(p: P, db: AppDb, style?: Style): AlternativeRoute[];
}

/** A template with its parameter type erased, for the registry. */
export type AnyTemplate = Template<Params>;

/** Declares a template (typed by its parameters) for the registry. */
export function template<P extends Params>(t: Template<P>): AnyTemplate {
  return t as unknown as AnyTemplate;
}
