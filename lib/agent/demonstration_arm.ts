/**
 * The demonstration arm: the routed model loop (loop.ts, through modelArm) with the task's reference in the model's
 * seat. At each step the loop observes the browser and builds the request exactly as for a model; the reference
 * answers it with its next action in the model's form (a selector resolved to its element index in that step's
 * element list, coordinates on the model's grid), `macro_done` where a prefix macro ends, `done` at the end; the
 * loop executes that reply as it would a model's. An episode that passes its grade is a demonstration proven by
 * index: its step records are the rows a model needed (lib/gen demonstrate). A reference the model could not have
 * followed (a selector with no index in the step's list) fails the episode, with why.
 */
import { HarnessError } from "../errors/mod.ts";
import type { ChatReply, ChatRequest } from "../llm/mod.ts";
import { familyAdapter } from "../routing/mod.ts";
import { kindOf, type ReferenceStep } from "../tasks/mod.ts";
import { type ActionCall, ADAPTER_OF_FAMILY, familyOf } from "../protocol/mod.ts";
import type { Arm, ArmContext, ArmOutcome, ObservedState } from "./arm.ts";
import { modelArm } from "./model_arm.ts";
import { actionGoal, type PreviousStep, replyText, type SegmentView } from "./_demonstration_text.ts";
import { DemonstrationError, indexedAction } from "./_demonstration_targets.ts";
import type { ChatClient } from "./step_record.ts";

export { DemonstrationError };

/** What a demonstration's requests are built with: the model arms' settings, without a model. */
export interface DemonstrationOptions {
  /** The system prompt a model arm sends, its placeholders filled. */
  systemPrompt: string;
  /** The date the sites show. */
  now: string;
  /** Coordinates in replies are on the 0-1000 grid (as the model arms' default). */
  normalizedCoords?: boolean;
  /** Leave the reply's thinking, evaluation, memory and next goal empty. */
  emptyThoughts?: boolean;
}

/** Every adapter: the oracle route with all of them served. */
const ALL_ADAPTERS = { baseName: "base", adapters: new Set([...Object.values(ADAPTER_OF_FAMILY), "rest"]) };

/** The served adapter of each family, as the oracle route with every adapter served picks it. */
const adapterOf = (family: string) => familyAdapter(family, ALL_ADAPTERS);

/**
 * Where a prefix macro ends: `switch_tab` after its first action; `authenticate_by_form` at the first page change
 * after something was typed; any other (open_detail, navigate_menu, search) at its first page change.
 */
function prefixEnded(macro: string, seg: { actions: number; navigated: boolean; typedThenNavigated: boolean }) {
  if (macro === "switch_tab") return seg.actions >= 1;
  if (macro === "authenticate_by_form") return seg.typedThenNavigated;
  return seg.navigated;
}

/**
 * The scrolls a reference step may take before its action: one brings its element(s) on screen, a few more cover a
 * page that moved meanwhile; beyond, the scrolls chase each other (the episode would spend its steps to its limit).
 */
const MAX_SCROLLS = 3;

/** The reference in the model's seat for one episode: answers each request with its next action. */
class ReferenceTeacher implements ChatClient {
  readonly context: ArmContext;
  readonly #chain: readonly string[];
  readonly #reference: readonly ReferenceStep[];
  readonly #o: DemonstrationOptions;
  #cursor = 0;
  #state: ObservedState | undefined;
  #segment = 0;
  #seg = { actions: 0, navigated: false, typed: false, typedThenNavigated: false };
  #lastUrl: string | undefined;
  #previous: PreviousStep | undefined;
  #failed: string | undefined;
  #optional = false;
  #ended = false;
  /** The scrolls answered in a row for the reference step at the cursor, before it was taken. */
  #scrolls = 0;

  constructor(ctx: ArmContext, o: DemonstrationOptions) {
    this.#chain = kindOf(ctx.task).plan(ctx.task);
    this.#reference = ctx.reference;
    this.#o = o;
    this.context = {
      ...ctx,
      observe: async (step, screenshot) => (this.#state = await ctx.observe(step, screenshot)),
      record: async (record, extra) => {
        const failed = record.actions.find((a) => !a.ok);
        if (this.#previous) this.#previous.ok = !failed && record.error === undefined;
        if (failed && !this.#optional && !this.#failed) {
          this.#failed = `step ${record.step}: ${failed.error ?? "the action failed"}`;
        }
        await ctx.record?.(record, extra);
      },
    };
  }

  /** The route: each planned macro's family and its adapter. */
  get route() {
    const families = this.#chain.map(familyOf);
    return { models: families.map(adapterOf), families };
  }

  #segmentView(): SegmentView {
    const macro = this.#chain[this.#segment] ?? this.#chain.at(-1)!;
    return { macro, family: familyOf(macro), index: this.#segment, count: this.#chain.length };
  }

  /** Updates the segment's progress with the page the last action led to. */
  #observePage(url: string): void {
    if (this.#lastUrl !== undefined && url !== this.#lastUrl && this.#seg.actions > 0) {
      this.#seg.navigated = true;
      if (this.#seg.typed) this.#seg.typedThenNavigated = true;
    }
  }

  /** The reference's next action in the model's form, with macro_done where a prefix ends; and its segment. */
  async #next(state: ObservedState): Promise<{ action: ActionCall; segment: SegmentView }> {
    if (this.#failed) throw new DemonstrationError(`the reference's ${this.#failed}`);
    this.#observePage(state.url);
    const last = this.#segment >= this.#chain.length - 1;
    const segment = this.#segmentView();
    if (!last && prefixEnded(this.#chain[this.#segment], this.#seg)) {
      this.#segment++;
      this.#seg = { actions: 0, navigated: false, typed: false, typedThenNavigated: false };
      this.#optional = false;
      return { action: { macro_done: {} }, segment };
    }
    for (; this.#cursor < this.#reference.length; this.#cursor++) {
      const step = this.#reference[this.#cursor];
      const where = `reference step ${this.#cursor + 1}`;
      const found = await indexedAction(step, state, this.context.session, this.#o.normalizedCoords ?? true, where);
      if (found === null) continue; // an optional step that does not apply here
      const action = found.action;
      if ("done" in action && !last) {
        throw new DemonstrationError(
          `${where} answers done while the prefix macro ${this.#chain[this.#segment]} has not ended (no page change)`,
        );
      }
      this.#optional = step.optional ?? false;
      if (found.consumed) {
        this.#cursor++;
        this.#scrolls = 0;
      } else if (++this.#scrolls > MAX_SCROLLS) {
        throw new DemonstrationError(
          `${where}: ${MAX_SCROLLS} scrolls in a row did not bring what it points at on screen: a model could not ` +
            "have pointed at it",
        );
      }
      this.#seg.actions++;
      if ("input" in action || "send_keys" in action) this.#seg.typed = true;
      this.#lastUrl = state.url;
      return { action, segment };
    }
    if (!last) {
      throw new DemonstrationError(
        `the reference ends while the prefix macro ${this.#chain[this.#segment]} has not ended (no page change)`,
      );
    }
    // An action task's reference ends without done: the model must still say it is finished.
    if (!this.#ended) {
      this.#ended = true;
      return { action: { done: { text: "", success: true } }, segment };
    }
    throw new DemonstrationError(`the reference ends after ${this.#reference.length} steps without done`);
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    if (!this.#state) throw new HarnessError("a demonstration was asked for a reply before any observation");
    const state = this.#state;
    const { action, segment } = await this.#next(state);
    const goal = actionGoal(action, state.snapshot.elements, segment);
    const text = replyText(goal, segment, this.#previous, this.#o.emptyThoughts ?? false);
    this.#previous = { goal, ok: true };
    return {
      text: JSON.stringify({ ...text, action: [action] }),
      usage: { prompt_tokens: 0, completion_tokens: 0 },
      latencyMs: 0,
      model: request.model,
      attempts: 1,
      finishReason: "stop",
      schemaFallback: false,
    };
  }
}

/** An outcome for an episode whose reference cannot be a demonstration: the arm failed, with why. */
function failed(why: string): ArmOutcome {
  return { answer: null, done: false, steps: 0, history: [], trace: [], errors: [why], failure: why };
}

/**
 * The demonstration arm: each episode runs the model loop with its reference as the model, routed as the oracle
 * arm with every adapter served (each planned macro's family's adapter, switched at macro_done).
 */
export function demonstrationArm(o: DemonstrationOptions): Arm {
  return {
    name: "demonstration",
    async run(ctx) {
      const teacher = new ReferenceTeacher(ctx, o);
      const route = teacher.route;
      const arm = modelArm({
        name: "demonstration",
        client: teacher,
        systemPrompt: o.systemPrompt,
        now: o.now,
        normalizedCoords: o.normalizedCoords ?? true,
        route: () => route,
      });
      try {
        return await arm.run(teacher.context);
      } catch (err) {
        if (err instanceof DemonstrationError) return failed(err.message);
        throw err;
      }
    },
  };
}
