import assert from "node:assert/strict";
import { parseJsonLines } from "./jsonl.ts";

const fail = (line: number, message: string) => new Error(`line ${line}: ${message}`);

Deno.test("parseJsonLines() skips blank lines and numbers lines from 1", () => {
  assert.deepEqual(parseJsonLines('\n {"a": 1} \r\n\n[2]\n', fail).lines, [
    { line: 2, value: { a: 1 } },
    { line: 4, value: [2] },
  ]);
});

Deno.test("parseJsonLines() reports a byte order mark instead of reading it as part of line 1", () => {
  assert.throws(
    () => parseJsonLines('\uFEFF{"a": 1}\n', fail),
    /^Error: line 1: starts with a UTF-8 byte order mark; save it without one$/,
  );
});
