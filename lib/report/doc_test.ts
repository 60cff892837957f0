import assert from "node:assert/strict";
import { toMarkdown } from "./doc.ts";
import { pValue } from "./format.ts";

Deno.test("report.md escapes only what would open an HTML tag: a small p-value reads as written", () => {
  const md = toMarkdown([
    { kind: "paragraph", text: `McNemar exact two-sided ${pValue(3e-17)}; ${pValue(0.125)}` },
    { kind: "list", items: ["task text with <b>markup</b>, <!-- a comment --> and 1 < 2"] },
  ]);
  assert.equal(
    md,
    "McNemar exact two-sided p < 0.0001; p = 0.125\n\n" +
      "- task text with &lt;b>markup&lt;/b>, &lt;!-- a comment --> and 1 < 2\n",
  );
});
