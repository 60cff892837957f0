import assert from "node:assert/strict";
import { join } from "node:path";
import { UsageError } from "../errors/mod.ts";
import {
  checkFolderFlag,
  choiceFlag,
  isHttpUrl,
  isIsoInstant,
  listFlag,
  numberFlag,
  numberText,
  parseFlags,
  readFileFlag,
  textFlag,
} from "./cli.ts";
import { helpHint } from "./main.ts";

/** Asserts that `fn` throws a UsageError with exactly `message`. */
function usage(fn: () => unknown, message: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof UsageError, String(e));
    assert.equal(e.message, message);
    return true;
  });
}

Deno.test("numberFlag() takes decimal numbers in range and names the flag, the value and the range otherwise", () => {
  const whole = { whole: true, min: 1, max: 256 };
  assert.equal(numberFlag({ workers: "4" }, "workers", whole), 4);
  assert.equal(numberFlag({}, "workers", whole), undefined);
  for (const bad of ["0", "1.5", "abc", "", " ", "0x10", "1e2", "257", "-1", "Infinity"]) {
    usage(
      () => numberFlag({ workers: bad }, "workers", whole),
      `--workers "${bad}" is not a whole number from 1 to 256`,
    );
  }
  const positive = { min: 0, above: true, max: 86_400 };
  assert.equal(numberFlag({ t: "0.5" }, "t", positive), 0.5);
  usage(() => numberFlag({ t: "0" }, "t", positive), '--t "0" is not a number > 0 and <= 86400');
  usage(() => numberFlag({ t: "NaN" }, "t", positive), '--t "NaN" is not a number > 0 and <= 86400');
  assert.equal(numberFlag({ temp: "1e-1" }, "temp", { min: 0 }), 0.1);
  usage(() => numberFlag({ temp: "-0.1" }, "temp", { min: 0 }), '--temp "-0.1" is not a number >= 0');
});

Deno.test("textFlag(), choiceFlag() and listFlag() refuse empty values and unknown choices", () => {
  assert.equal(textFlag({ out: "o" }, "out"), "o");
  usage(() => textFlag({ out: "" }, "out", "a folder"), '--out "" is empty: expected a folder');
  usage(() => textFlag({ out: "  " }, "out"), '--out "  " is empty: expected a value');
  assert.equal(choiceFlag({ s: "all" }, "s", ["test", "all"]), "all");
  usage(() => choiceFlag({ s: "dev" }, "s", ["test", "all"]), '--s "dev" is not one of: test, all');
  assert.deepEqual(listFlag({ ids: " a, ,b " }, "ids"), ["a", "b"]);
  usage(() => listFlag({ ids: " , " }, "ids"), '--ids " , " names nothing: expected a comma-separated list');
  assert.deepEqual(listFlag({ a: "io,rest" }, "a", ["io", "rest"]), ["io", "rest"]);
  usage(() => listFlag({ a: "foo" }, "a", ["io", "rest"]), '--a "foo" is not one of: io, rest');
  usage(() => listFlag({ a: "io,foo" }, "a", ["io", "rest"]), '--a "io,foo": "foo" is not one of: io, rest');
});

Deno.test("isHttpUrl() and isIsoInstant() take http(s) URLs and ISO days or instants with their zone", () => {
  assert.ok(isHttpUrl("http://u:p@h:1/v1"));
  for (const bad of ["not a url", "ftp://h/", "127.0.0.1:8400", "http://"]) assert.ok(!isHttpUrl(bad), bad);
  for (const ok of ["2026-03-15", "2026-03-15T10:00:00Z", "2026-03-15T10:00Z", "2026-03-15T10:00:00.5+02:00"]) {
    assert.ok(isIsoInstant(ok), ok);
  }
  for (const bad of ["garbage", "2026-02-30", "2026-03-15T10:00:00", "2026-03-15T25:00Z", "15/03/2026", ""]) {
    assert.ok(!isIsoInstant(bad), bad);
  }
});

Deno.test("numberText() reads decimal notation only: anything else is NaN for the range check to refuse", () => {
  assert.deepEqual([numberText(" 12 ", true), numberText("1.5"), numberText("1e3"), numberText("-.5")], [
    12,
    1.5,
    1000,
    -0.5,
  ]);
  for (const bad of ["0x10", "", "1,5", "abc"]) assert.ok(Number.isNaN(numberText(bad)), bad);
  assert.ok(Number.isNaN(numberText("1.5", true)), "a whole number has no point");
  assert.ok(Number.isNaN(numberText("1e9", true)), "nor an exponent");
});

Deno.test("checkFolderFlag() and readFileFlag() name the flag, the path and what is wrong with it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-cli-" });
  try {
    const file = join(dir, "p.md");
    await Deno.writeTextFile(file, "prompt");
    await checkFolderFlag("regrade", dir);
    const rejects = (p: Promise<unknown>, message: string) =>
      assert.rejects(p, (e: unknown) => e instanceof UsageError && e.message === message);
    await rejects(checkFolderFlag("regrade", join(dir, "no")), `--regrade "${dir}/no": no such folder`);
    await rejects(checkFolderFlag("regrade", file), `--regrade "${file}" is a file, not a folder`);
    await rejects(
      checkFolderFlag("regrade", dir, { file: "results.jsonl", what: "a run's output folder" }),
      `--regrade "${dir}" holds no results.jsonl (expected a run's output folder)`,
    );
    assert.equal(await readFileFlag("system-prompt", file), "prompt");
    await rejects(readFileFlag("system-prompt", join(dir, "no")), `--system-prompt "${dir}/no": no such file`);
    await rejects(readFileFlag("system-prompt", dir), `--system-prompt "${dir}": is a folder, not a file`);
    await Deno.writeFile(file, new Uint8Array([0x6f, 0x6b, 0x0a, 0xc3, 0x28]));
    await rejects(
      readFileFlag("system-prompt", file),
      `--system-prompt "${file}" is not UTF-8: byte 0xc3 at byte offset 3 (line 2) is not valid UTF-8 text`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseFlags() takes a unique prefix and a negative value as argparse does, and names the near flag", () => {
  const options = {
    repeats: { type: "string" },
    resume: { type: "boolean" },
    temperature: { type: "string" },
    limit: { type: "string" },
  } as const;
  assert.deepEqual({ ...parseFlags(["--rep", "2", "--temp=0.7"], options) }, { repeats: "2", temperature: "0.7" });
  assert.deepEqual({ ...parseFlags(["--limit", "-1"], options) }, { limit: "-1" });
  assert.throws(() => parseFlags(["--re", "2"], options), /--re is ambiguous: it could be --repeats, --resume/);
  assert.throws(() => parseFlags(["--limt", "2"], options), /Unknown option '--limt' \(did you mean --limit\?\)/);
});

Deno.test("helpHint() adds the --help line to an option error, not to one about what a flag names", async () => {
  const err = await checkFolderFlag("regrade", "/no/such/folder").catch((e) => e);
  assert.equal(helpHint(err), "");
  assert.equal(
    helpHint(new UsageError('--workers "0" is not a whole number from 1 to 256')),
    "\nRun with --help for the options.",
  );
});
