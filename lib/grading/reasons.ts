/** A failing rule of a grade: its reason code (lib/protocol's REASONS) and its prose. */
import type { ReasonCode } from "../protocol/mod.ts";

/** A failing rule: its code and the prose that says which condition, row or claim, and why. */
export interface Failure {
  /** Which rule failed. */
  code: ReasonCode;
  /** The condition's path and label, then why (gate's `detail`). */
  text: string;
}

/** A Failure. */
export const fail = (code: ReasonCode, text: string): Failure => ({ code, text });
