/**
 * The site split (fixtures/annotations/site_split.json): which sites' tasks train and which are held out, and which
 * tasks a split takes. The human-task loader (lib/tasks) and the offline rows (record_rows.ts) read it here.
 */
import { z } from "zod";
import { TaskFormatError } from "../errors/mod.ts";
import { describeIssues, errorMap, type ZodSchema } from "./schema_text.ts";

const site = z.string().regex(/^[a-z][a-z0-9_-]*$/);

/** The site split: which sites train on and which are held out for testing. */
export interface SiteSplit {
  /** The sites whose tasks train. */
  train: string[];
  /** The sites held out: their tasks are the test split. */
  test: string[];
}

/** site_split.json: the sites whose tasks train, and the sites held out (their tasks are the test split). */
export const siteSplitSchema: ZodSchema<SiteSplit> = z.strictObject({
  train: z.array(site),
  test: z.array(site).min(1),
}).superRefine((s, ctx) => {
  const both = s.test.filter((x) => s.train.includes(x));
  if (both.length) ctx.addIssue({ code: "custom", path: ["test"], message: `"${both[0]}" is also a train site` });
});

/** Which human tasks a run takes (--human-split). */
export type HumanSplit = "test" | "train" | "all";

/**
 * Reads the site split file.
 * @throws TaskFormatError naming the file: missing, unreadable, not JSON, or the field that is wrong.
 */
export async function loadSiteSplit(file: string): Promise<SiteSplit> {
  let text: string;
  try {
    // Strict UTF-8 without a byte order mark, as every annotation file (docs/verifiers.md).
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await Deno.readFile(file));
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound
      ? "no such file"
      : e instanceof TypeError
      ? "is not UTF-8"
      : (e as Error).message;
    throw new TaskFormatError(`cannot read the site split ${file}: ${why}`, file, undefined, { cause: e });
  }
  if (text.startsWith("\uFEFF")) throw new TaskFormatError(`${file}: starts with a byte order mark`, file, 1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new TaskFormatError(`${file}: not JSON: ${(e as Error).message}`, file, undefined, { cause: e });
  }
  const r = siteSplitSchema.safeParse(value, { error: errorMap });
  if (!r.success) throw new TaskFormatError(`${file}: ${describeIssues(r.error)}`, file, undefined, { cause: r.error });
  return r.data;
}

/**
 * Whether the task belongs to the split, by the seed's human_tasks: test takes the tasks whose main `site` is a test
 * site, whatever their other sites; train those with a train site and no test site; all those whose main site is in
 * either (every task, since the loader names them all). So a cross-site task on a train site that touches a test
 * site is in neither test nor train, only in all. A task without `sites` (datagen, proposed) is on its `site` alone.
 */
export function inSplit(task: { site: string; sites?: readonly string[] }, split: HumanSplit, s: SiteSplit): boolean {
  if (split === "test") return s.test.includes(task.site);
  if (split === "all") return s.test.includes(task.site) || s.train.includes(task.site);
  const sites = task.sites ?? [task.site];
  return sites.some((x) => s.train.includes(x)) && !sites.some((x) => s.test.includes(x));
}
