/** The router of one episode: the served model for each request, advancing past a macro on macro_done. */
import { UsageError } from "../errors/mod.ts";
import type { ActionCall } from "../protocol/mod.ts";
import { gateDone, premature, routerNote } from "./gate.ts";

/** What the router does besides choosing models. */
export interface RouterOptions {
  /** Turn a premature done into macro_done (done-gating). */
  gate?: boolean;
  /** With `gate`: tell the next step's specialist the planned steps still left. */
  note?: boolean;
}

/**
 * One request of an arm as trace.json records it: the model that wrote the reply and its actions after gating.
 * The router writes the model, the actions and `gated`; an arm adds its own fields (the model arms: the call's
 * usage, latency, attempts and step).
 */
export interface TraceEntry {
  /** The served model; null for an arm without one (replay, noop). */
  model: string | null;
  /** The reply's actions, after gating. */
  action: ActionCall[];
  /** Present, and true, when the router turned a premature done into macro_done. */
  gated?: boolean;
  /** The arm's own fields. */
  [field: string]: unknown;
}

/** The router's verdict on one reply. */
export interface Observation {
  /** The reply's actions, a premature done rewritten into macro_done when gated. */
  actions: ActionCall[];
  /** The router turned a premature done into macro_done. */
  gated: boolean;
  /** The router note for the next step, when gated with notes on. */
  note?: string;
}

/**
 * Chooses the served model (base or an adapter) of each request and follows the plan: `macro_done` closes the
 * current planned step. Feed every reply's actions to `observe()` before they are executed.
 */
export class Router {
  readonly #models: readonly string[];
  readonly #families: readonly (string | undefined)[] | undefined;
  readonly #gate: boolean;
  readonly #note: boolean;
  #step = 0;
  #gates = 0;
  #segActions = 0;
  #trace: TraceEntry[] = [];
  #pendingNote: string | undefined;

  /**
   * A router over a plan of steps.
   * @param models the served model of each planned step (a shorter list keeps its last model for later steps)
   * @param families the family of each planned step, when the steps are routed by family
   */
  constructor(
    models: readonly string[],
    families?: readonly (string | undefined)[],
    options: RouterOptions = {},
  ) {
    if (models.length === 0) throw new UsageError("a router needs at least one model name, got none");
    this.#models = [...models];
    this.#families = families && families.length > 0 ? [...families] : undefined;
    this.#gate = options.gate ?? false;
    this.#note = options.note ?? false;
  }

  /** The model name the next request must use. */
  modelForNextRequest(): string {
    return this.#models[Math.min(this.#step, this.#models.length - 1)];
  }

  /** The family of the planned step the next request serves; undefined when the router plans no families. */
  familyForNextRequest(): string | undefined {
    return this.#families?.[Math.min(this.#step, this.#families.length - 1)];
  }

  /** Index of the current planned step (past the last one once every step is closed). */
  get step(): number {
    return this.#step;
  }

  /** How many dones were gated so far. */
  get gates(): number {
    return this.#gates;
  }

  /** Every reply observed so far, in order. */
  get trace(): readonly TraceEntry[] {
    return this.#trace;
  }

  /** The router note waiting for the model's next step, returned once. */
  pendingNote(): string | undefined {
    const note = this.#pendingNote;
    this.#pendingNote = undefined;
    return note;
  }

  /** Applies done-gating to a reply's actions, records it in the trace and advances on macro_done. */
  observe(actions: readonly ActionCall[]): Observation {
    const model = this.modelForNextRequest();
    const left = Math.max(0, this.#models.length - this.#step);
    const family = this.familyForNextRequest();
    const out = this.#gate
      ? gateDone(actions, premature(left, this.#segActions, family), this.#gates)
      : { actions: [...actions], gated: false };
    let note: string | undefined;
    if (out.gated) {
      this.#gates += 1;
      if (this.#note) {
        note = routerNote(this.#families ? this.#families.slice(this.#step).filter((f) => f !== undefined) : []);
        this.#pendingNote = note;
      }
    }
    this.#trace.push({ model, action: out.actions, ...(out.gated ? { gated: true as const } : {}) });
    if (out.actions.some((a) => Object.hasOwn(a, "macro_done"))) {
      this.#step += 1;
      this.#segActions = 0;
    } else {
      this.#segActions += out.actions.filter((a) => !Object.hasOwn(a, "done") && !Object.hasOwn(a, "macro_done"))
        .length;
    }
    return note === undefined ? { actions: out.actions, gated: out.gated } : { ...out, note };
  }
}

/**
 * What one episode's router follows: the served model of each planned step, their families when the steps are
 * routed by family, and done-gating. The arm registry (lib/run/arms.ts) says what each arm gives.
 */
export interface RoutePlan extends RouterOptions {
  /** The served model of each planned step (one model: every step's). */
  models: readonly string[];
  /** The family of each planned step (absent: the steps are not routed by family, and no note can name them). */
  families?: readonly string[];
}

/** The router of one episode, from its route. */
export function createRouter(route: RoutePlan): Router {
  return new Router(route.models, route.families, { gate: route.gate, note: route.note });
}
