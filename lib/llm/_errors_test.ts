import assert from "node:assert/strict";
import { connectionProblem } from "./_errors.ts";

Deno.test("connectionProblem() tells nothing listening from a host name that does not resolve", async () => {
  // A real refusal: a port nothing listens on.
  const server = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (server.addr as Deno.NetAddr).port;
  server.close();
  const refused = await fetch(`http://127.0.0.1:${port}/v1/models`).catch((e) => e);
  assert.match(
    connectionProblem(refused, `http://127.0.0.1:${port}/v1`),
    new RegExp(
      `connection refused \\(nothing listens on 127\\.0\\.0\\.1:${port}\\): start it \\(scripts/serve\\.sh\\)`,
    ),
  );
  // Deno's words for a failed lookup (the test may not reach a resolver), under fetch's "fetch failed".
  const dns = new TypeError("fetch failed", {
    cause: new Error(
      "error sending request for url (http://gpu-17:8400/v1/models): client error (Connect): dns error: failed to " +
        "lookup address information: Name or service not known",
    ),
  });
  assert.equal(
    connectionProblem(dns, "http://gpu-17:8400/v1"),
    ': the host name "gpu-17" does not resolve (DNS lookup failed): check the host in the URL',
  );
  assert.equal(connectionProblem(new Error("socket hang up"), "http://x/v1"), ": socket hang up");
});
