/**
 * Demonstration rows (gen.ts --demonstrations): the rows of a demonstration run's passing episodes, written from
 * their step records with the writer rejection sampling uses (lib/results), in its layout, so that one reader reads both
 * (lib/run_folder readRowsFolder). Each row is labelled with its segment: the macro of the chain it serves (the
 * prefix macro's until its macro_done, the task's own after), that macro's family and the adapter it was routed to,
 * and `source: "demonstration"`.
 */
import { join } from "node:path";
import { HarnessError } from "../errors/mod.ts";
import { sha256Hex, writeFileAtomic } from "../io/mod.ts";
import {
  type ExportedEpisode,
  ROWS_EXPORT,
  type RowsExport,
  RunFolder,
  serialise,
  type StepRecord,
} from "../run_folder/mod.ts";
import { familyOf, type RowsSpec } from "../protocol/mod.ts";
import { checkRowsFolder, episodeRowSources, ROWS_INDEX_FILE, type RowSource, writeRows } from "../results/mod.ts";
import { kindOf, parseGradeInputs, type RunTask } from "../tasks/mod.ts";

/** The `source` of a demonstration row (a rejection-sampling row's is "rejection_sampling"). */
export const DEMONSTRATION_SOURCE = "demonstration";

/** Which rows of a demonstration run are written, and where. */
export interface DemonstrationRowsOptions {
  /** The demonstration run's folder. */
  out: string;
  /** The passing episodes whose rows are written, in order. */
  episodes: readonly { episode: string; task_id: string; repeat: number }[];
  /** The rows folder (created; must be empty unless `overwrite`). */
  to: string;
  /** Only rows of segments of these families. */
  families?: readonly string[];
  /** Only rows of segments of these macros. */
  macros?: readonly string[];
  /** Drop a row whose request and target an earlier row already has. */
  dedupe?: boolean;
  /** Replace an earlier export in `to`. */
  overwrite?: boolean;
  /** The split the instances were taken from (export.json's filters). */
  split: string;
}

/** What was written. */
export interface DemonstrationRowsSummary {
  /** The episodes that left rows, as export.json lists them. */
  episodes: ExportedEpisode[];
  /** Rows written. */
  rows: number;
  /** Rows written per family. */
  byFamily: Record<string, number>;
  /** Rows written per macro. */
  byMacro: Record<string, number>;
  /** Rows dropped as duplicates (--dedupe). */
  duplicates: number;
}

/** A row's segment labels. */
interface Labels {
  segment: number;
  macro: string;
  family: string;
  model?: string;
  op: string;
}

/** The first action's name of a reply ("" when it has none). */
function opOf(reply: string): string {
  try {
    const action = (JSON.parse(reply) as { action?: Record<string, unknown>[] }).action;
    return Object.keys(action?.[0] ?? {})[0] ?? "";
  } catch {
    return "";
  }
}

/** Each request's segment: the chain's macro, advanced past each macro_done reply. */
function labelsOf(records: readonly StepRecord[], chain: readonly string[]): Labels[] {
  let segment = 0;
  return records.map((r) => {
    const op = opOf(r.reply ?? "");
    const macro = chain[Math.min(segment, chain.length - 1)];
    const labels = { segment, macro, family: r.family ?? familyOf(macro), model: r.model ?? undefined, op };
    if (op === "macro_done") segment++;
    return labels;
  });
}

/** A row's identity for --dedupe: its request (the image by its bytes) and its target. */
async function rowKey(s: RowSource): Promise<string> {
  const bytes = s.image ? await crypto.subtle.digest("SHA-256", await Deno.readFile(s.image.path)) : undefined;
  const image = bytes ? [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("") : "";
  return await sha256Hex(JSON.stringify([s.system, s.text, image, s.target]));
}

/** The rows spec of a demonstration episode: the labels of each kept row. */
function demonstrationSpec(episode: string, task: RunTask, chain: readonly string[], kept: Labels[]): RowsSpec {
  const template = (task as { gen?: { template?: string } }).gen?.template;
  return {
    dir: "",
    agentStepsOnly: false,
    row: (step) => {
      const l = kept[step];
      return {
        task_id: episode,
        step,
        family: l.family,
        source: DEMONSTRATION_SOURCE,
        ...(l.model ? { model: l.model } : {}),
        segment: l.segment,
        macro: l.macro,
        op: l.op,
        ...(template ? { template } : {}),
      };
    },
    episode: (steps) => ({
      task_id: episode,
      instruction: task.instruction,
      steps,
      macros: [...chain],
      variant: DEMONSTRATION_SOURCE,
      source: DEMONSTRATION_SOURCE,
      ...(template ? { template } : {}),
    }),
  };
}

/**
 * Writes the rows of `o.episodes` into `o.to` (`<episode>/rows.jsonl`, `row_<i>.png`, `episode.json`, and
 * export.json), filtered by segment family and macro, duplicates dropped with `dedupe`.
 * @throws UsageError when `o.to` cannot take the rows; HarnessError when an episode's step records do not match its
 *   rows (a harness bug).
 */
export async function writeDemonstrationRows(o: DemonstrationRowsOptions): Promise<DemonstrationRowsSummary> {
  await checkRowsFolder(o);
  const folder = await RunFolder.open(o.out);
  if (o.overwrite) await Deno.remove(o.to, { recursive: true }).catch(() => {});
  await Deno.mkdir(o.to, { recursive: true });
  const out: DemonstrationRowsSummary = { episodes: [], rows: 0, byFamily: {}, byMacro: {}, duplicates: 0 };
  const seen = new Set<string>();
  for (const e of o.episodes) {
    const task: RunTask = (await folder.gradeInputs(e.episode, parseGradeInputs)).inputs.task;
    const chain = kindOf(task).plan(task);
    const records = ((await folder.steps(e.episode))?.records ?? []).filter((s) => s.request && s.reply !== null);
    const sources = await episodeRowSources(folder, e.episode) ?? [];
    if (sources.length !== records.length) {
      throw new HarnessError(`episode "${e.episode}": ${sources.length} row sources for ${records.length} requests`);
    }
    const labels = labelsOf(records, chain);
    const keptSources: RowSource[] = [];
    const kept: Labels[] = [];
    for (const [i, s] of sources.entries()) {
      const l = labels[i];
      if (o.families && !o.families.includes(l.family)) continue;
      if (o.macros && !o.macros.includes(l.macro)) continue;
      if (o.dedupe) {
        const key = await rowKey(s);
        if (seen.has(key)) {
          out.duplicates++;
          continue;
        }
        seen.add(key);
      }
      keptSources.push(s);
      kept.push(l);
    }
    const rows = await writeRows(join(o.to, e.episode), keptSources, demonstrationSpec(e.episode, task, chain, kept));
    if (rows === undefined) continue;
    for (const l of kept) {
      out.byFamily[l.family] = (out.byFamily[l.family] ?? 0) + 1;
      out.byMacro[l.macro] = (out.byMacro[l.macro] ?? 0) + 1;
    }
    out.rows += rows;
    out.episodes.push({ ...e, kind: kindOf(task).name, status: "passed", rows });
  }
  const index: RowsExport = {
    created: new Date().toISOString(),
    out: o.out,
    results: "results.jsonl",
    filters: {
      split: o.split,
      family: o.families ? [...o.families] : null,
      arm: [DEMONSTRATION_SOURCE],
      repeat: null,
      dedupe: Boolean(o.dedupe),
    },
    episodes: out.episodes,
  };
  await writeFileAtomic(join(o.to, ROWS_INDEX_FILE), serialise(ROWS_EXPORT, index, ROWS_INDEX_FILE, 1) + "\n");
  return out;
}
