/**
 * What eval.ts and merge.ts both ask of an out folder: the files that mark it as a run's, and the folders it must
 * neither be nor hold.
 */
import type { GuardedFolder } from "../io/mod.ts";
import { SUITE_ROOT } from "./config.ts";
import { LOCK_FILE } from "./lock.ts";
import { MANIFEST_FILE } from "./manifest.ts";

/** What marks a folder as a run's output (a run writes one of them first): only such a folder takes a run. */
export const RUN_MARKERS: readonly string[] = ["results.jsonl", MANIFEST_FILE, LOCK_FILE];

/** The folders an out folder must neither be nor hold: the current folder, the repository, the home folder. */
export function guardedFolders(cwd: string, home: string | undefined): GuardedFolder[] {
  return [
    { path: cwd, what: "the current folder" },
    { path: SUITE_ROOT, what: "the repository" },
    ...(home ? [{ path: home, what: "the home folder" }] : []),
  ];
}
