/**
 * What the macro layer is made of (docs/generation.md, "The macro layer"): a template's chain is a list of
 * segments, one per macro; each segment carries its reference steps, the method evidence a procedure phrasing
 * requires, its standard attacks and its legitimate alternatives. Templates compose segments and add the outcome.
 */
import type { Macro, ReasonCode } from "../../protocol/mod.ts";
import type { ActionJson, ConditionJson } from "../template.ts";

/** How a phrasing asks: naming the controls (their method evidence is required) or only the outcome. */
export type Style = "procedure" | "goal";

/** The styles, in order. */
export const STYLES: readonly Style[] = ["procedure", "goal"];

/** The standard attacks of a macro (docs/generation.md, "Attacks and alternatives"). */
export type AttackKind =
  | "typed_url"
  | "equivalent_control"
  | "same_tab"
  | "extra_wrong"
  | "undo"
  | "prefix_only"
  | "unfinished";

/** The legitimate alternatives of a macro. */
export type AlternativeKind = "keyboard" | "normalised_query" | "neighbour" | "other_control" | "other_route";

/** A mistake on one segment: its steps replace the segment's; the grade must fail for `reason`, `witness` holding. */
export interface Attack {
  /** Which standard attack. */
  kind: AttackKind;
  /** The steps instead of the segment's reference steps. */
  steps: ActionJson[];
  /** The reason code a procedure instance's grade must carry. */
  reason: ReasonCode;
  /** Holds on the evidence only when the deviation happened. */
  witness: ConditionJson;
  /**
   * A method attack (a typed URL, the same tab, another control) breaks only the method a procedure phrasing names:
   * under a goal phrasing it is another route, so it runs as an alternative that must pass. An outcome attack fails
   * under both styles.
   */
  method: boolean;
  /**
   * The agent stops after the attack's steps: the rest of the chain is not run (a sign-in left unsubmitted leaves the
   * app's pages behind its form, so the chain's next steps cannot be done).
   */
  ends?: boolean;
}

/** Another legitimate way to do a segment: its steps replace the segment's, and the instance must still pass. */
export interface Alternative {
  /** Which kind of alternative. */
  kind: AlternativeKind;
  /** The steps instead of the segment's reference steps. */
  steps: ActionJson[];
  /** The styles under which it is legitimate (default both). */
  styles?: readonly Style[];
}

/** One macro of a chain, as the layer defines it for one app and its parameters. */
export interface Segment {
  /** The macro. */
  macro: Macro;
  /** The reference steps. */
  steps: ActionJson[];
  /** The evidence a procedure phrasing requires: that it was done the way the phrasing names it. */
  method: ConditionJson[];
  /**
   * The evidence that the segment's outcome happened, by any route (the page it reaches): checked for a prefix
   * segment under both styles (the task's own outcome is the template's).
   */
  reached: ConditionJson[];
  /**
   * What the segment's act must leave, wherever it sits in the chain and under both styles (a download's request,
   * and no other file of its kind beside it); absent: the template's outcome says it.
   */
  outcome?: ConditionJson[];
  /** The standard attacks that apply. */
  attacks: Attack[];
  /** The legitimate alternatives. */
  alternatives: Alternative[];
}

/** A phrasing that names the controls to use: the chain's method evidence is checked. */
export const procedure = <P>(text: (p: P) => string): { style: Style; text: (p: P) => string } => ({
  style: "procedure",
  text,
});

/** A phrasing that names only the outcome: any route that reaches it passes. */
export const goal = <P>(text: (p: P) => string): { style: Style; text: (p: P) => string } => ({ style: "goal", text });
