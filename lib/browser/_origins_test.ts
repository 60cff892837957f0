import assert from "node:assert/strict";
import { isAllowedUrl, normalizeOrigins } from "./_origins.ts";
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
