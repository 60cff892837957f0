import assert from "node:assert/strict";
import { join } from "node:path";
import { cookieHeaderFor, listDownloads, parseSetCookie, resolveUpload } from "./_io.ts";
import { ActionError } from "./errors.ts";

Deno.test("resolveUpload() finds files inside the folder and refuses paths that leave it", async () => {
  const dir = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "a.txt"), "a");
    await Deno.writeTextFile(join(outside, "secret.txt"), "s");
    await Deno.symlink(join(outside, "secret.txt"), join(dir, "link.txt"));
    assert.equal(await resolveUpload(dir, "a.txt"), await Deno.realPath(join(dir, "a.txt")));
    await assert.rejects(resolveUpload(dir, "../a.txt"), /must be a file name inside the upload folder/);
    await assert.rejects(resolveUpload(dir, join(outside, "secret.txt")), ActionError);
    await assert.rejects(resolveUpload(dir, "link.txt"), /leads outside the upload folder/);
    await assert.rejects(resolveUpload(dir, "missing.txt"), /no file "missing.txt" in the upload folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("listDownloads() lists finished files only, and nothing for a missing folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "b.csv"), "b");
    await Deno.writeTextFile(join(dir, "a.txt"), "a");
    await Deno.writeTextFile(join(dir, "c.pdf.crdownload"), "");
    assert.deepEqual(await listDownloads(dir), ["a.txt", "b.csv"]);
    assert.deepEqual(await listDownloads(join(dir, "nope")), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cookieHeaderFor() keeps the cookies of the base's host", () => {
  const cookies = [
    { name: "webmix_sid", value: "s1", domain: "127.0.0.1", path: "/" },
    { name: "other", value: "x", domain: "127.0.0.2", path: "/" },
    { name: "deep", value: "d", domain: "127.0.0.1", path: "/shop" },
    { name: "wide", value: "w", domain: ".sandbox.test", path: "/" },
  ];
  assert.equal(cookieHeaderFor("http://127.0.0.1:4000", cookies), "webmix_sid=s1");
  assert.equal(cookieHeaderFor("http://app.sandbox.test/", cookies), "wide=w");
});

Deno.test("parseSetCookie() reads the session cookie the admin protocol sets, scoped to the base's host", () => {
  assert.deepEqual(parseSetCookie("webmix_sid=ab-12; Path=/; HttpOnly; SameSite=Lax", "http://127.0.0.1:8318"), {
    name: "webmix_sid",
    value: "ab-12",
    domain: "127.0.0.1",
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
  });
  assert.equal(parseSetCookie("garbage", "http://127.0.0.1:1"), null);
});
