/**
 * The plumbing every entry script shares: files written atomically (a crash never leaves a half-written file),
 * JSON Lines read with the file and line of what is wrong, and a bounded worker pool.
 */
export {
  appendWhole,
  childPath,
  exists,
  type GuardedFolder,
  guardedFolderProblem,
  readTextIfExists,
  readUtf8File,
  removeIfExists,
  sha256Hex,
  type TextProblem,
  writeFileAtomic,
  writeJsonAtomic,
} from "./files.ts";
export { type JsonLine, parseJsonLines } from "./jsonl.ts";
export { runPool } from "./pool.ts";
export {
  basesFlag,
  checkFolderFlag,
  choiceFlag,
  describeRange,
  type Flags,
  inRange,
  instantFlag,
  isHttpUrl,
  isIsoInstant,
  listFlag,
  numberFlag,
  type NumberRange,
  parseCommandLine,
  parseFlags,
  readFileFlag,
  textFlag,
  urlFlag,
} from "./cli.ts";
export { Redactor } from "./redact.ts";
export { runMain } from "./main.ts";
export { checkNetAccess, hostPort, type Reach } from "./net_access.ts";
export { getJson } from "./http.ts";
