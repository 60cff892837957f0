/**
 * An episode's step log: each step record is appended to <episode>/steps.jsonl as its step ends (whole lines: a
 * failing or killed episode keeps every step up to the failure), each system prompt is written once to the run's
 * prompts/<sha256>.txt, and the steps' history.json entries are kept for an episode whose arm never returns.
 */
import { join } from "node:path";
import type { HistoryItem, StepRecord, StepSink } from "../agent/mod.ts";
import { appendWhole, Redactor, writeFileAtomic } from "../io/mod.ts";
import { EPISODE_FILES, RUN_FILES, stepLine } from "../run_folder/mod.ts";

/** One episode's step log. */
export class StepLog {
  readonly records: StepRecord[] = [];
  readonly history: HistoryItem[] = [];
  /** Appends run one after another, in step order. */
  #appending: Promise<void> = Promise.resolve();

  /**
   * @param prompts the run's prompt writes by hash, shared by its episodes (each prompt is written once a run)
   */
  constructor(
    readonly out: string,
    readonly dir: string,
    readonly prompts: Map<string, Promise<void>>,
    readonly redactor: Redactor = new Redactor(),
  ) {}

  /** The sink an arm records its steps through (ArmContext.record). */
  readonly sink: StepSink = (record, extra) => {
    const clean = this.redactor.value(record);
    this.records.push(clean);
    if (extra?.history) this.history.push(extra.history);
    const line = new TextEncoder().encode(stepLine(clean));
    const prompt = extra?.system !== undefined && record.request
      ? this.#prompt(record.request.system_sha256, extra.system)
      : Promise.resolve();
    const done = this.#appending.then(() =>
      Promise.all([prompt, appendWhole(join(this.dir, EPISODE_FILES.steps), line, `step ${record.step}'s record`)])
    ).then(() => {});
    this.#appending = done.catch(() => {});
    return done;
  };

  #prompt(sha: string, text: string): Promise<void> {
    let written = this.prompts.get(sha);
    if (!written) {
      written = writeFileAtomic(join(this.out, RUN_FILES.prompts, `${sha}.txt`), this.redactor.value(text));
      this.prompts.set(sha, written);
      // A failed write (its episode fails on it) is tried again by the next episode.
      written.catch(() => this.prompts.delete(sha));
    }
    return written;
  }
}
