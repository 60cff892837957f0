import assert from "node:assert/strict";
import { join } from "node:path";
import { HarnessError, UsageError } from "../errors/mod.ts";
import {
  childPath,
  decodeUtf8,
  guardedFolderProblem,
  outFolderNames,
  readUtf8File,
  type TextProblem,
} from "./files.ts";

const enc = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => typeof p === "string" ? [...new TextEncoder().encode(p)] : p));

/** The problem decodeUtf8() reports for `bytes`. */
function problem(bytes: Uint8Array): TextProblem {
  let seen: TextProblem | undefined;
  assert.throws(() => decodeUtf8(bytes, (p) => new Error((seen = p).message)));
  return seen!;
}

Deno.test("decodeUtf8() decodes UTF-8 and reports a byte order mark or a bad byte with its offset and line", () => {
  assert.equal(decodeUtf8(enc("é ✓ 😀\n"), () => new Error()), "é ✓ 😀\n");
  assert.deepEqual(problem(enc([0xef, 0xbb, 0xbf], "{}")), {
    message: "starts with a UTF-8 byte order mark; save it without one",
    offset: 0,
    line: 1,
  });
  // Latin-1 "é" on the third line.
  assert.deepEqual(problem(enc("a\nb\ncaf", [0xe9], "\n")), {
    message: "is not UTF-8: byte 0xe9 at byte offset 7 (line 3) is not valid UTF-8 text",
    offset: 7,
    line: 3,
  });
  // UTF-16 (a BOM of its own), an overlong "/", a surrogate, a cut sequence at the end.
  assert.equal(problem(enc([0xff, 0xfe], "{")).offset, 0);
  assert.equal(problem(enc("x", [0xc0, 0xaf])).offset, 1);
  assert.equal(problem(enc("xy", [0xed, 0xa0, 0x80])).offset, 2);
  assert.equal(problem(enc("ok", [0xe2, 0x9c])).offset, 2);
});

Deno.test("childPath() joins one plain name and refuses any name that would leave the folder", () => {
  assert.equal(childPath("out", "shop_1~r2"), "out/shop_1~r2");
  for (
    const [name, why] of [
      ["..", "is a relative folder name"],
      [".", "is a relative folder name"],
      ["", "is empty"],
      ["../x", "holds a path separator"],
      ["a\\b", "holds a path separator"],
      ["a\nb", "holds a control character"],
    ]
  ) {
    assert.throws(() => childPath("out", name), (e: unknown) => {
      assert.ok(e instanceof HarnessError);
      assert.equal(e.message, `${JSON.stringify(name)} cannot name a folder inside out: it ${why}`);
      return true;
    });
  }
});

Deno.test("guardedFolderProblem() refuses the root, a guarded folder and any folder above one", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "webmix-guard-" }));
  try {
    const cwd = join(dir, "work", "here");
    await Deno.mkdir(cwd, { recursive: true });
    await Deno.symlink(cwd, join(dir, "link"));
    const guarded = [{ path: cwd, what: "the current folder" }];
    assert.equal(await guardedFolderProblem("/", guarded), "is the filesystem root");
    assert.equal(await guardedFolderProblem(cwd, guarded), "is the current folder");
    assert.equal(await guardedFolderProblem(join(dir, "link"), guarded), "is the current folder");
    assert.equal(await guardedFolderProblem(`${cwd}/..`, guarded), `holds the current folder (${cwd})`);
    assert.equal(await guardedFolderProblem(dir, guarded), `holds the current folder (${cwd})`);
    assert.equal(await guardedFolderProblem(join(cwd, "out"), guarded), undefined);
    assert.equal(await guardedFolderProblem(join(dir, "work", "other"), guarded), undefined);
    assert.equal(await guardedFolderProblem(join(dir, "work", "here2"), guarded), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readUtf8File() refuses a file past maxBytes before reading it, through fail", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/big.txt`;
  await Deno.writeTextFile(file, "x".repeat(2049));
  const fail = (p: { message: string }) => new Error(p.message);
  assert.equal((await readUtf8File(file, fail, 4096)).length, 2049);
  await assert.rejects(readUtf8File(file, fail, 2048), /^Error: is 2049 bytes, more than the 2048 it may hold$/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("outFolderNames() lists a folder, is undefined for none, and names the flag of a file", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(join(dir, "a.txt"), "x");
  assert.deepEqual(await outFolderNames(dir), ["a.txt"]);
  assert.equal(await outFolderNames(join(dir, "new")), undefined);
  await assert.rejects(
    outFolderNames(join(dir, "a.txt"), "to"),
    (e: unknown) => e instanceof UsageError && e.message === `--to "${join(dir, "a.txt")}" is a file, not a folder`,
  );
  await Deno.remove(dir, { recursive: true });
});
