import assert from "node:assert/strict";
import { REDACTED, Redactor } from "./redact.ts";

Deno.test("Redactor.text() hides a URL's user and password, credential query values and given secrets", () => {
  const r = new Redactor(["sk-live-123456", ...Redactor.secretsOf("http://bob:S3cret%21@gpu7:8400/v1")]);
  assert.deepEqual(Redactor.secretsOf("http://bob:S3cret%21@gpu7:8400/v1"), ["S3cret!"]);
  const text = "GET http://bob:S3cret%21@gpu7:8400/v1/models failed; key sk-live-123456; " +
    "https://h/x?api_key=abc123&page=2 S3cret! said bob";
  const out = r.text(text);
  for (const secret of ["S3cret", "sk-live-123456", "abc123", "bob:"]) assert.ok(!out.includes(secret), out);
  assert.match(out, /http:\/\/\*\*\*@gpu7:8400\/v1\/models/);
  assert.match(out, /api_key=\*\*\*&page=2/);
  assert.ok(out.includes(REDACTED));
});

Deno.test("Redactor keeps ordinary text and page parameters, and returns the same value when nothing is secret", () => {
  const r = new Redactor(["EMPTY", "abc", undefined]);
  const value = { url: "http://127.0.0.1:9/tracker/issues?key=WEB-8&token=x", text: "EMPTY abc" };
  assert.equal(r.value(value), value);
});

Deno.test("Redactor.value() hides a secret inside JSON strings, escaped characters included", () => {
  const r = new Redactor(['pa"ss\\word']);
  const v = r.value({ errors: ['auth pa"ss\\word rejected'], n: 1 });
  assert.deepEqual(v, { errors: [`auth ${REDACTED} rejected`], n: 1 });
});
