/**
 * One CLI run that several tests of a file assert on, where their assertions need no run of their own (each test's
 * episode scripted apart, on a task of its own): the first test that asks starts it, the others await the same
 * run; its output folder is removed when the file's tests are over. A test run alone (--filter) still gets it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./cli.ts";
import { loadTasks } from "../../lib/tasks/mod.ts";

/** `start` run once, on the first call; every call gets that same promise (the first test that asks starts it). */
export function once<T>(start: () => Promise<T>): () => Promise<T> {
  let run: Promise<T> | undefined;
  return () => run ??= start();
}

/** Removes `path` when the test module ends (a shared run's folder outlives the test that made it). */
export function removedAtExit(path: string): string {
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(path, { recursive: true });
    } catch {
      // Already gone.
    }
  });
  return path;
}

/** `start` run once, on the first call; every call gets that run. Its `out` is removed at the file's end. */
export function sharedRun<T extends { out: string }>(start: () => Promise<T>): () => Promise<T> {
  return once(() => start().then((r) => (removedAtExit(r.out), r)));
}

const BUNDLED = await loadTasks(join(ROOT, "fixtures/tasks.jsonl"));

/** A bundled task's instruction: the fixture model server's marker for that task's episode. */
export function instructionOf(taskId: string): string {
  const task = BUNDLED.find((t) => t.task_id === taskId);
  if (!task) throw new Error(`no bundled task ${taskId}`);
  return task.instruction;
}

/** The one result line of `taskId` among a run's. */
export function resultOf(results: Record<string, unknown>[], taskId: string): Record<string, unknown> {
  const found = results.filter((r) => r.task_id === taskId);
  assert.equal(found.length, 1, `${taskId}: ${JSON.stringify(results)}`);
  return found[0];
}
