/**
 * The plumbing every entry script shares: files written atomically (a crash never leaves a half-written file),
 * JSON Lines read with the file and line of what is wrong, and a bounded worker pool.
 */
export { exists, writeFileAtomic, writeJsonAtomic } from "./files.ts";
export { type JsonLine, parseJsonLines } from "./jsonl.ts";
export { runPool } from "./pool.ts";
export { basesFlag, type Flags, intFlag, listFlag, parseFlags } from "./cli.ts";
