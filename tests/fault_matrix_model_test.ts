/**
 * The fault matrix of a run (issue 10), model server side: eval.ts's model arm over lab tasks, real Chromium, the
 * real openai client against the fixture model server (tests/fixture_model_server.ts) serving faults: HTTP 500,
 * a hang past --model-timeout, a slow answer, a non-JSON body, a completion without choices, a reply that breaks
 * the agent's schema or names an unknown action, and a server process that dies and comes back on its port.
 *
 * What each episode must be follows lib/llm: a request is retried (maxRetries, so 4 attempts in all) on connection
 * errors, timeouts, 429 and 5xx with backoff; a body that is not JSON or has no message is not retried. A request
 * that still fails is the harness failing: the episode gets `error: "ModelReplyError: ..."` and --resume runs it
 * again. A reply that arrives but cannot be used is the agent failing that step (`errors`), and the grade decides.
 */
import assert from "node:assert/strict";
import { DEFAULT_MODEL_CLIENT_OPTIONS } from "../lib/llm/client.ts";
import { agentReply, type FixtureEpisode, type FixtureStep, startFixtureModelServer } from "./fixture_model_server.ts";
import { evalArgs, labTask, readResults, runCli, spawnCli, taskFile } from "./support/cli.ts";
import { allCases, ledger, once, reaped, startFaultSites, whole } from "./support/fault_sites.ts";
import { prepareModelServerProcess, startModelServerProcess } from "./support/model_server_process.ts";

/** Attempts a request gets in all: the first and the client's retries. */
const ATTEMPTS = DEFAULT_MODEL_CLIENT_OPTIONS.maxRetries + 1;

const reply = agentReply;
const GO: FixtureStep = { reply: reply({ navigate: { url: "/lab/leak" } }) };
const DONE: FixtureStep = { reply: reply({ done: { text: "on the leak page", success: true } }) };
/** An episode whose first step is served after `faults`, then goes to the page its task asks for and ends. */
const script = (id: string, faults: FixtureStep["faults"] = [], more: FixtureStep[] = []): FixtureEpisode => ({
  marker: `lab task ${id}`,
  steps: [...more, { ...GO, faults }, DONE],
});
const times = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);

/** A lab task passed by reaching /lab/leak from /lab/. */
const pageTask = (id: string) => labTask(id, "/lab/", [], { page: { path: "/lab/leak", query: {} } });
const byId = (results: Record<string, unknown>[]) => Object.fromEntries(results.map((r) => [r.task_id, r]));
const history = async (out: string, episode: string) =>
  JSON.parse(await Deno.readTextFile(`${out}/${episode}/history.json`)).history as {
    metadata: { attempts?: number; latency_ms?: number };
  }[];

function modelArgs(tasks: string, out: string, base: string, vllm: string, ...more: string[]): string[] {
  return evalArgs("base", tasks, out, base, "--vllm", vllm, "--max-steps", "4", "--no-step-screenshots", ...more);
}

/** Model server faults: each episode labelled as the retry policy says, the run goes on, --resume reruns the errors. */
async function serverFaults(): Promise<void> {
  await using sites = await startFaultSites();
  const bad = (id: string, text: string) => ({ marker: `lab task ${id}`, steps: times(3, { reply: text }) });
  const episodes: FixtureEpisode[] = [
    script("m_ok"),
    script("m_500_retried", times(ATTEMPTS - 1, { status: 500 })),
    script("m_500_exhausted", times(ATTEMPTS, { status: 500 })),
    script("m_slow", [{ delayMs: 2000 }]),
    script("m_garbage", [{ garbage: "<html>502 Bad Gateway</html>" }]),
    script("m_no_choices", [{ json: { id: "x", object: "chat.completion", choices: [] } }]),
    script("m_bad_schema", [], [{ reply: { action: "click", note: "valid JSON, not an agent output" } }]),
    bad("m_unknown_action", JSON.stringify(reply({ teleport: { url: "/lab/leak" } }))),
  ];
  const ids = episodes.map((e) => e.marker.replace("lab task ", ""));
  await using server = startFixtureModelServer({ episodes });
  const { dir, tasks, out } = await taskFile(ids.map(pageTask));
  // Four workers: the episodes that wait on backoff or a slow reply overlap (one Chromium, four contexts).
  const args = modelArgs(tasks, out, sites.base, server.url, "--workers", "4", "--model-timeout", "8");
  const res = await runCli("eval.ts", args);
  assert.equal(res.code, 0, res.stderr);
  const results = await readResults(out);
  assert.deepEqual(ledger(results, once(ids)), whole(once(ids)));
  const r = byId(results);
  const attempts = (id: string) => server.requests.filter((q) => q.episode === `lab task ${id}` && q.step === 0);
  const url = server.url.replaceAll("/", "\\/").replaceAll(".", "\\.");

  for (const id of ["m_ok", "m_500_retried", "m_slow", "m_bad_schema"]) {
    assert.equal(r[id].ok, true, `${id}: ${JSON.stringify(r[id])}`);
    assert.equal(r[id].error, undefined, id);
  }
  assert.deepEqual(attempts("m_500_retried").map((q) => q.status), [...times(ATTEMPTS - 1, 500), 200]);
  assert.equal((await history(out, "m_500_retried"))[0].metadata.attempts, ATTEMPTS);
  const slow = (await history(out, "m_slow"))[0].metadata;
  assert.ok(
    slow.attempts === 1 && slow.latency_ms! >= 2000,
    `answered slowly, on the first attempt: ${JSON.stringify(slow)}`,
  );
  assert.equal((r.m_bad_schema.errors as string[]).length, 1, "one failed step, then the episode went on");
  assert.match((r.m_bad_schema.errors as string[])[0], /^step 1: model reply is not an agent output/);
  assert.equal(r.m_bad_schema.steps, 3);

  assert.equal(r.m_500_exhausted.ok, false);
  assert.match(
    String(r.m_500_exhausted.error),
    new RegExp(`^ModelReplyError: model "qwen35-4b" at ${url} answered HTTP 500 \\(after ${ATTEMPTS} attempts\\)`),
  );
  assert.equal(attempts("m_500_exhausted").length, ATTEMPTS, "no attempt past the retry budget");
  assert.match(
    String(r.m_garbage.error),
    new RegExp(`^ModelReplyError: model "qwen35-4b" at ${url} sent a reply that is not JSON`),
  );
  assert.equal(attempts("m_garbage").length, 1, "a body that is not JSON is not retried");
  assert.match(String(r.m_no_choices.error), /^ModelReplyError: .* sent a reply without a message/);
  assert.equal(attempts("m_no_choices").length, 1, "a completion without choices is not retried");

  const unknown = r.m_unknown_action;
  assert.deepEqual([unknown.ok, unknown.error, unknown.steps], [false, undefined, 3], JSON.stringify(unknown));
  assert.match((unknown.errors as string[])[0], /^step 1 teleport: /);
  assert.match(String(unknown.detail), /; step 1 teleport: /, "the verdict's detail names the failed action");

  // --resume runs exactly the harness errors again, against a server that scripts only those.
  const errored = ["m_500_exhausted", "m_garbage", "m_no_choices"];
  await using again = startFixtureModelServer({ episodes: errored.map((id) => script(id)) });
  const resumed = await runCli("eval.ts", [
    ...modelArgs(tasks, out, sites.base, again.url, "--workers", "3"),
    "--resume",
  ]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`resume: ${ids.length - errored.length} episodes already in .*, 3 to run`));
  assert.ok(again.requests.every((q) => q.status === 200), JSON.stringify(again.requests.map((q) => q.fault)));
  const after = await readResults(out);
  assert.deepEqual(ledger(after, once(ids)), whole(once(ids)));
  for (const id of errored) assert.equal(byId(after)[id].ok, true, id);
  await Deno.remove(dir, { recursive: true });
}

/** A model server that hangs past --model-timeout: retried, then the episode is a harness error. */
async function serverHangs(): Promise<void> {
  await using sites = await startFaultSites();
  const episodes = [script("h_hang", times(ATTEMPTS, { hang: true })), script("h_once", [{ hang: true }])];
  await using server = startFixtureModelServer({ episodes });
  const { dir, tasks, out } = await taskFile(["h_hang", "h_once"].map(pageTask));
  const res = await runCli(
    "eval.ts",
    modelArgs(tasks, out, sites.base, server.url, "--workers", "2", "--model-timeout", "1"),
  );
  assert.equal(res.code, 0, res.stderr);
  const results = await readResults(out);
  assert.deepEqual(ledger(results, once(["h_hang", "h_once"])), whole(once(["h_hang", "h_once"])));
  const r = byId(results);
  assert.match(
    String(r.h_hang.error),
    new RegExp(
      `^ModelReplyError: model "qwen35-4b" at .* did not answer within 1000 ms \\(after ${ATTEMPTS} attempts\\)`,
    ),
  );
  assert.ok((r.h_hang.duration_s as number) < 20, `gave up in time: ${r.h_hang.duration_s}s`);
  assert.equal(server.requests.filter((q) => q.episode === "lab task h_hang").length, ATTEMPTS);
  assert.equal(r.h_once.ok, true, `a timed-out attempt is retried: ${JSON.stringify(r.h_once)}`);
  assert.equal((await history(out, "h_once"))[0].metadata.attempts, 2);
  await Deno.remove(dir, { recursive: true });
}

/** A model server that dies and comes back on its port: back within the retries the episode passes, later an error. */
async function serverDiesAndReturns(): Promise<void> {
  await using sites = await startFaultSites();
  const ids = ["d_a", "d_b", "d_c", "d_d"];
  const { dir, tasks, out } = await taskFile(ids.map(pageTask));
  // Each server process is started ahead and listens the moment the last one died.
  await using first = await startModelServerProcess({ episodes: [script("d_a"), script("d_b", [{ hang: true }])] });
  await using second = await prepareModelServerProcess(
    { episodes: [script("d_b"), script("d_c", [{ hang: true }])] },
    first.port,
  );
  await using third = await prepareModelServerProcess({ episodes: [script("d_d")] }, first.port);
  const args = modelArgs(tasks, out, sites.base, first.url, "--workers", "1", "--model-timeout", "8");
  const run = spawnCli("eval.ts", args);
  await using _run = reaped(run.child);
  await first.waitForAttempt("lab task d_b", 0);
  await first.kill("SIGKILL"); // d_b's request is cut; its retry finds the next server
  await second.listen();
  await second.waitForAttempt("lab task d_c", 0);
  await second.kill("SIGKILL"); // d_c's request is cut, and no server answers its retries
  await run.waitFor(/(?:FAIL|ERROR) d_c/);
  await third.listen();
  const res = await run.done();
  assert.equal(res.code, 0, res.stderr);
  const results = await readResults(out);
  assert.deepEqual(ledger(results, once(ids)), whole(once(ids)));
  const r = byId(results);
  assert.ok(r.d_a.ok && r.d_b.ok && r.d_d.ok, JSON.stringify(results));
  // d_b's cut request was answered by the new server. The client counts its own attempts: Deno's fetch itself
  // resends a request once when a pooled keep-alive connection resets (denoland/deno#32566), so when that resend
  // already finds the new server listening, the client saw one attempt.
  assert.ok(
    second.attempts.some((a) => a.episode === "lab task d_b" && a.step === 0),
    `d_b's first request was retried onto the new server: ${JSON.stringify(second.attempts)}`,
  );
  const b = (await history(out, "d_b"))[0].metadata.attempts!;
  assert.ok(b >= 1 && b <= ATTEMPTS, `d_b's first request took the client ${b} attempts`);
  assert.equal(r.d_c.ok, false);
  assert.match(
    String(r.d_c.error),
    new RegExp(`^ModelReplyError: cannot reach model server at ${first.url}.*\\(after ${ATTEMPTS} attempts\\)`),
  );
  await third.kill();
  await using fourth = startFixtureModelServer({ port: first.port, episodes: [script("d_c")] });
  const resumed = await runCli("eval.ts", [...args, "--resume"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /resume: 3 episodes already in .*, 1 to run/);
  const after = await readResults(out);
  assert.deepEqual(ledger(after, once(ids)), whole(once(ids)));
  assert.ok(after.every((x) => x.ok), JSON.stringify(after.filter((x) => !x.ok)));
  assert.deepEqual(fourth.requests.map((q) => q.status), [200, 200, 200], "GET /models, then d_c's two steps");
  await Deno.remove(dir, { recursive: true });
}

// Each case has its own site server, model servers and run, and mostly waits (retry backoff, --model-timeout, a
// slow reply): they run at once, in one test that fails naming each case that failed.
Deno.test("the model server's faults: 500s, garbage, hangs past --model-timeout, a server that dies and comes back", () =>
  allCases({
    "model server faults: each episode labelled as the retry policy says, the run goes on, --resume reruns the errors":
      serverFaults,
    "a model server that hangs past --model-timeout: retried, then the episode is a harness error": serverHangs,
    "a model server that dies and comes back on its port: back within the retries the episode passes, later it is an error":
      serverDiesAndReturns,
  }));
