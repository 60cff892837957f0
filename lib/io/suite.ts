/** Where the suite itself lives, and the folders no run, merge or export may write into or delete. */
import { fileURLToPath } from "node:url";
import type { GuardedFolder } from "./files.ts";

/** A path inside the suite's own folder (the repository), resolved from this file, not the current folder. */
export const suiteFile = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** The suite's own folder (the repository): a run never writes into it, nor deletes it. */
export const SUITE_ROOT: string = suiteFile("").replace(/\/+$/, "");

/** The folders an output folder must neither be nor hold: the current folder, the repository, the home folder. */
export function guardedFolders(cwd: string, home: string | undefined): GuardedFolder[] {
  return [
    { path: cwd, what: "the current folder" },
    { path: SUITE_ROOT, what: "the repository" },
    ...(home ? [{ path: home, what: "the home folder" }] : []),
  ];
}
