/**
 * Done-gating: the router, not the specialist, decides when the task is complete. A premature `done` becomes
 * `macro_done` (the next planned step's specialist takes over), a bounded number of times per episode.
 */
import type { ActionCall } from "../protocol/mod.ts";
import { FAMILY_HINTS, REASONING } from "./families.ts";

/** How many dones the router may turn into macro_done in one episode. */
export const MAX_GATES = 3;

/**
 * Whether a `done` now is premature: planned steps remain after the current one, or the current (last) step has
 * not been acted on at all (the specialists' trained habit is macro_done immediately followed by done, which
 * skipped the re-planned step). A reasoning step's done IS its action (the answer), so it counts as acting.
 * @param planLeft planned steps not yet closed, the current one included
 * @param segActions actions other than done/macro_done taken in the current step
 * @param family the current step's family (undefined when the arm does not plan by family)
 */
export function premature(planLeft: number, segActions: number, family: string | undefined): boolean {
  return planLeft > 1 || (planLeft === 1 && segActions === 0 && family !== REASONING);
}

/** What the router tells the specialist after it gated a done: the planned steps still left, described. */
export function routerNote(families: readonly string[]): string {
  const left = families.map((f) => {
    const hint = FAMILY_HINTS[f]?.replace(/\.+$/, "");
    return hint ? `${f} (${hint})` : f;
  });
  return `The task is not finished yet. The router's plan still has ${left.length} step(s): ${left.join("; then ")}. ` +
    "Re-read the task, find the part that is not done yet, and do it; call done only when every part is finished.";
}

/**
 * Rewrites the reply's first `done` into `{macro_done: {}}` when the done is premature and fewer than MAX_GATES
 * gates fired so far. The input is not modified.
 */
export function gateDone(
  actions: readonly ActionCall[],
  isPremature: boolean,
  gatesSoFar: number,
): { actions: ActionCall[]; gated: boolean } {
  const out = [...actions];
  if (!isPremature || gatesSoFar >= MAX_GATES) return { actions: out, gated: false };
  const i = out.findIndex((a) => Object.hasOwn(a, "done"));
  if (i < 0) return { actions: out, gated: false };
  out[i] = { macro_done: {} };
  return { actions: out, gated: true };
}
