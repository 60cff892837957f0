/**
 * The plumbing every entry script shares: files written atomically (a crash never leaves a half-written file),
 * JSON Lines read with the file and line of what is wrong, and a bounded worker pool.
 * @module
 */
export {
  appendWhole,
  childPath,
  exists,
  type GuardedFolder,
  guardedFolderProblem,
  outFolderNames,
  readUtf8File,
  removeIfExists,
  sha256Hex,
  type TextProblem,
  writeFileAtomic,
  writeJsonAtomic,
} from "./files.ts";
export { type JsonLine, type JsonLinesOptions, parseJsonLines } from "./jsonl.ts";
export { runPool } from "./pool.ts";
export { guardedFolders, SUITE_ROOT, suiteFile } from "./suite.ts";
export {
  checkFolderFlag,
  checkOutputPath,
  choiceFlag,
  describeRange,
  type Flags,
  inRange,
  isHttpUrl,
  isIsoInstant,
  listFlag,
  numberFlag,
  type NumberRange,
  numberText,
  parseCommandLine,
  parseFlags,
  readFileFlag,
  textFlag,
} from "./cli.ts";
export { Redactor } from "./redact.ts";
export { helpHint, runMain } from "./main.ts";
export { checkNetAccess, type Reach } from "./net_access.ts";
export { getJson } from "./http.ts";
