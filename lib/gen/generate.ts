/**
 * Instantiating templates into task lines (docs/generation.md): for each template, a seeded sample of its
 * parameter records without repetition, a phrasing each, and the task line it implies, with its template,
 * parameters, chain and split. The same seed and code give the same lines, byte for byte.
 */
import { hash32, Rng } from "./rng.ts";
import { seedDb } from "./data.ts";
import { type AnyTemplate, type Params, phrase, styleOf } from "./template.ts";
import type { Split } from "../protocol/mod.ts";

/** The generator's version: it changes whenever the same seed would give other lines. */
export const GEN_VERSION = "3";

/** What to generate. */
export interface GenOptions {
  /** The seed of every draw. */
  seed: number;
  /** Instances per template (fewer when a template cannot make that many). */
  perTemplate: number;
  /** Only these template ids (default: all). */
  templates?: readonly string[];
  /** Only templates on these apps (default: all). */
  apps?: readonly string[];
}

/** One generated task line, as the task loader reads it. */
export type GenLine = Record<string, unknown> & { task_id: string };

/** What a generation made, for the sidecar (`*.gen.json`). */
export interface GenMeta {
  /** GEN_VERSION of the code that made the file. */
  generator: string;
  /** The --seed. */
  seed: number;
  /** The --per-template (a template with fewer records makes them all). */
  per_template: number;
  /** Per template: its capacity (parameter records it can take) and the instances made. */
  templates: { id: string; capacity: number; made: number }[];
  /** Lines written. */
  instances: number;
}

/** The split of an entity of a template: 70 % train, 15 % val, 15 % test, by a hash of both. */
export function splitOf(templateId: string, entity: string): Split {
  const bucket = hash32(`${templateId}|${entity}`) % 20;
  return bucket < 14 ? "train" : bucket < 17 ? "val" : "test";
}

/** A short stable id for a parameter record (its key order fixed). */
export function paramsKey(p: Params): string {
  return JSON.stringify(Object.keys(p).sort().map((k) => [k, p[k]]));
}

/** The templates `options` selects. @throws Error naming an unknown template id or app. */
export function selectTemplates(
  all: readonly AnyTemplate[],
  options: Omit<GenOptions, "seed" | "perTemplate">,
): AnyTemplate[] {
  const ids = new Set(all.map((t) => t.id));
  for (const id of options.templates ?? []) {
    if (!ids.has(id)) throw new Error(`no template "${id}" (deno task gen --list shows them)`);
  }
  const sites = new Set(all.map((t) => t.site));
  for (const app of options.apps ?? []) {
    if (!sites.has(app)) throw new Error(`no template on app "${app}" (apps: ${[...sites].join(", ")})`);
  }
  return all.filter((t) =>
    (!options.templates?.length || options.templates.includes(t.id)) &&
    (!options.apps?.length || options.apps.includes(t.site))
  ).sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The task line of template `t` on parameters `p` with phrasing `phrasing` (its style decides the check). */
export function instantiate(t: AnyTemplate, p: Params, phrasing: number): GenLine {
  const db = seedDb(t.site);
  const style = styleOf(t.phrasings[phrasing]);
  const built = t.build(p, db, style);
  const entity = t.entity(p);
  const prefix = t.prefix ?? [];
  return {
    task_id: `${t.id}-${hash32(paramsKey(p)).toString(16).padStart(8, "0")}`,
    site: t.site,
    macro: t.macro,
    instruction: phrase(t.phrasings[phrasing], p),
    style,
    option: p,
    start: {
      url: built.start.url,
      ...(built.start.setup?.length ? { setup: built.start.setup } : {}),
      prefix: prefix.length ? { macro: prefix[0], ...(prefix[1] ? { then: prefix[1] } : {}) } : null,
      ...(built.start.logged_out ? { logged_out: true } : {}),
    },
    check: built.check,
    verifier: null,
    solution: built.solution,
    split: splitOf(t.id, entity),
    gen: { template: t.id, version: GEN_VERSION, chain: [...prefix, t.macro], entity },
  };
}

/** The parameter records template `t` can take. @throws Error when two records are equal. */
export function capacityOf(t: AnyTemplate): Params[] {
  const all = t.params(seedDb(t.site));
  const seen = new Set<string>();
  for (const p of all) {
    const k = paramsKey(p);
    if (seen.has(k)) throw new Error(`template ${t.id}: parameters ${k} listed twice`);
    seen.add(k);
  }
  return all;
}

/**
 * The task lines of `options` over `all`: for each template (in id order), `perTemplate` parameter records drawn
 * without repetition by a stream seeded with the seed and the template's id (adding a template does not change
 * another's draws), each with a drawn phrasing.
 * @throws Error naming a template whose ids collide or which has fewer than two phrasings.
 */
export function generate(all: readonly AnyTemplate[], options: GenOptions): { lines: GenLine[]; meta: GenMeta } {
  const lines: GenLine[] = [];
  const meta: GenMeta = {
    generator: GEN_VERSION,
    seed: options.seed,
    per_template: options.perTemplate,
    templates: [],
    instances: 0,
  };
  for (const t of selectTemplates(all, options)) {
    if (t.phrasings.length < 2) throw new Error(`template ${t.id}: give at least two phrasings`);
    const params = capacityOf(t);
    const rng = new Rng(`${options.seed}:${t.id}`);
    const chosen = rng.sample(params, options.perTemplate);
    const ids = new Set<string>();
    for (const p of chosen) {
      const line = instantiate(t, p, rng.int(t.phrasings.length));
      if (ids.has(line.task_id)) throw new Error(`template ${t.id}: two parameter records hash to ${line.task_id}`);
      ids.add(line.task_id);
      lines.push(line);
    }
    meta.templates.push({ id: t.id, capacity: params.length, made: chosen.length });
  }
  meta.instances = lines.length;
  return { lines, meta };
}
