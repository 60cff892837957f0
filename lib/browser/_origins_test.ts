import assert from "node:assert/strict";
import { isAdminPath, isAllowedUrl, normalizeOrigins, proxyBypassList } from "./_origins.ts";
import { UsageError } from "../errors/mod.ts";

Deno.test("isAllowedUrl() admits the allowed origins and data:, blob:, about:", () => {
  const origins = normalizeOrigins(["http://127.0.0.1:8080/shop/", "http://localhost:9000"]);
  assert.ok(isAllowedUrl("http://127.0.0.1:8080/mail/inbox?x=1", origins));
  assert.ok(isAllowedUrl("http://localhost:9000/", origins));
  assert.ok(isAllowedUrl("data:image/png;base64,AAAA", origins));
  assert.ok(isAllowedUrl("blob:http://127.0.0.1:8080/0b0c", origins));
  assert.ok(isAllowedUrl("about:blank", origins));
});

Deno.test("isAllowedUrl() refuses near misses: other port, other loopback address, other scheme", () => {
  const origins = normalizeOrigins(["http://127.0.0.1:8080"]);
  assert.equal(isAllowedUrl("http://127.0.0.1:8081/", origins), false);
  assert.equal(isAllowedUrl("http://127.0.0.2:8080/", origins), false);
  assert.equal(isAllowedUrl("http://localhost:8080/", origins), false);
  assert.equal(isAllowedUrl("https://127.0.0.1:8080/", origins), false);
  assert.equal(isAllowedUrl("http://127.0.0.1:8080.example.invalid/", origins), false);
  assert.equal(isAllowedUrl("not a url", origins), false);
});

Deno.test("normalizeOrigins() rejects values that are not origins", () => {
  assert.throws(() => normalizeOrigins(["127.0.0.1:8080"]), UsageError);
  assert.throws(() => normalizeOrigins(["nope"]), /allowed origin "nope" is not a URL/);
});

Deno.test("isAllowedUrl() refuses the allowed origins' /_admin paths, however they are spelled", () => {
  const origins = normalizeOrigins(["http://127.0.0.1:8080"]);
  for (
    const path of [
      "/_admin",
      "/_admin/",
      "/_admin/session-flags?x",
      "/%5Fadmin/log",
      "/%5fadmin/log",
      "/_adm%69n/state",
    ]
  ) {
    assert.equal(isAllowedUrl(`http://127.0.0.1:8080${path}`, origins), false, path);
  }
  for (const path of ["/_ADMIN/log", "//_admin/log", "/%255Fadmin/log", "/shop/../_admin/log", "/%2F_admin/log"]) {
    assert.ok(isAdminPath(new URL(`http://h${path}`).pathname), path);
  }
  assert.ok(isAllowedUrl("http://127.0.0.1:8080/_sandbox/record", origins), "the recorder's endpoints stay open");
  assert.ok(isAllowedUrl("http://127.0.0.1:8080/_administrator", origins));
  assert.ok(isAllowedUrl("http://127.0.0.1:8080/shop/_admin/x", origins));
});

Deno.test("proxyBypassList() sends loopback through the proxy but the allowed origins' own scheme and port", () => {
  const origins = normalizeOrigins(["http://127.0.0.1:8080", "https://example.com", "http://[::1]:81"]);
  assert.deepEqual(proxyBypassList(origins), [
    "<-loopback>",
    "http://127.0.0.1:8080",
    "https://example.com:443",
    "http://[::1]:81",
  ]);
});
