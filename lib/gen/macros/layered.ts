/**
 * A template on the macro layer: it names its chain of segments (each macro's steps, method evidence, attacks and
 * alternatives, from the layer), the outcome its instruction asks for, its phrasings with their styles, and its own
 * outcome near misses. The check, the reference, the attacks and the alternatives of each instance follow from them.
 */
import type { AppDb } from "../../sites/mod.ts";
import {
  type ActionJson,
  type AlternativeRoute,
  type AnyTemplate,
  type Built,
  type ConditionJson,
  type NearMiss,
  type Params,
  type Phrasing,
  type Template,
  template,
} from "../template.ts";
import type { Segment, Style } from "./macro.ts";

/** What a template on the layer declares: a template's identity and parameters, then its chain and outcome. */
export interface LayeredTemplate<P extends Params>
  extends Pick<Template<P>, "id" | "site" | "macro" | "prefix" | "summary" | "params" | "entity"> {
  /** The phrasings, each with its style: a procedure names the controls, a goal only the outcome. */
  phrasings: readonly Exclude<Phrasing<P>, (p: P) => string>[];
  /** The start page, setup and login state. */
  start(p: P, db: AppDb): Built["start"];
  /** The chain, in order: the prefix macros' segments, then the task's own. */
  chain(p: P, db: AppDb): Segment[];
  /** The outcome the instruction asks for, whatever the route (final page, writes, answer). */
  outcome(p: P, db: AppDb): ConditionJson[];
  /** The template's own outcome near misses (a sibling, an overshoot, a collateral write). */
  nearMisses(p: P, db: AppDb, steps: ActionJson[]): NearMiss[];
}

/** The reference steps of a chain. */
const stepsOf = (chain: readonly Segment[]) => chain.flatMap((s) => s.steps);

/** The chain's steps with segment `i`'s replaced by `steps`. */
const replaced = (chain: readonly Segment[], i: number, steps: ActionJson[]) =>
  chain.flatMap((s, j) => j === i ? steps : s.steps);

/**
 * The name of segment `i`'s attack or alternative `kind`: its macro's name, with the segment's place in the chain when
 * the macro comes twice (`open_detail_3_typed_url`: each must have its own episode).
 */
const nameOf = (chain: readonly Segment[], i: number, kind: string) =>
  chain.filter((s) => s.macro === chain[i].macro).length > 1
    ? `${chain[i].macro}_${i + 1}_${kind}`
    : `${chain[i].macro}_${kind}`;

/** The attacks of a chain that must fail under `style`, as near misses. */
function attacksOf(chain: readonly Segment[], style: Style): NearMiss[] {
  return chain.flatMap((s, i) =>
    s.attacks.filter((a) => style === "procedure" || !a.method).map((a) => ({
      name: nameOf(chain, i, a.kind),
      category: a.method ? "wrong_method" as const : "reverted" as const,
      steps: replaced(chain, i, a.steps),
      reason: a.reason,
      witness: a.witness,
      attack: { macro: s.macro, kind: a.kind },
    }))
  );
}

/** The legitimate routes of a chain under `style`: its alternatives, and under a goal its method attacks. */
function alternativesOf(chain: readonly Segment[], style: Style): AlternativeRoute[] {
  return chain.flatMap((s, i) => [
    ...s.alternatives.filter((a) => !a.styles || a.styles.includes(style)).map((a) => ({
      name: nameOf(chain, i, a.kind),
      macro: s.macro,
      kind: a.kind,
      steps: replaced(chain, i, a.steps),
    })),
    ...(style === "goal" ? s.attacks.filter((a) => a.method) : []).map((a) => ({
      name: `${nameOf(chain, i, a.kind)}_route`,
      macro: s.macro,
      kind: "other_route" as const,
      steps: replaced(chain, i, a.steps),
    })),
  ]);
}

/** A template on the macro layer. */
export function layered<P extends Params>(t: LayeredTemplate<P>): AnyTemplate {
  return template<P>({
    id: t.id,
    site: t.site,
    macro: t.macro,
    summary: t.summary,
    params: t.params,
    entity: t.entity,
    phrasings: t.phrasings,
    prefix: t.prefix,
    build: (p, db, style = "procedure") => {
      const chain = t.chain(p, db);
      const reached = chain.slice(0, -1).flatMap((s) => s.reached);
      const acts = chain.flatMap((s) => s.outcome ?? []);
      const method = style === "procedure" ? chain.flatMap((s) => s.method) : [];
      return {
        start: t.start(p, db),
        check: { all: [...t.outcome(p, db), ...acts, ...reached, ...method] },
        solution: stepsOf(chain),
      };
    },
    nearMisses: (p, db, style = "procedure") => {
      const chain = t.chain(p, db);
      return [...t.nearMisses(p, db, stepsOf(chain)), ...attacksOf(chain, style)];
    },
    alternatives: (p, db, style = "procedure") => alternativesOf(t.chain(p, db), style),
  });
}
