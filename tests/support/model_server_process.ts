/**
 * The fixture model server (tests/fixture_model_server.ts) in a process of its own, so that a test can kill it the
 * way a model server dies (SIGKILL: its connections reset, its port refuses) and start another on the same port.
 *
 * The child loads, then waits for `listen()` before it binds: a replacement is started ahead and takes the port
 * within milliseconds of the old one dying. It prints one JSON line per event on stdout: `listening` with the port,
 * and `attempt` for each chat request matched to an episode's step as it arrives.
 */
import { fileURLToPath } from "node:url";
import { type FixtureModelServerOptions, startFixtureModelServer } from "../fixture_model_server.ts";

/** One chat request the child received: which episode (marker) and step. */
export interface ProcessAttempt {
  episode: string;
  step: number;
}

/** A fixture model server process, loaded and waiting for `listen()`. */
export interface ModelServerProcess extends AsyncDisposable {
  /** Binds the port (0: a free one) and resolves with the server's /v1 URL. */
  listen(): Promise<string>;
  /** The attempts it was told of so far, in arrival order. */
  attempts: ProcessAttempt[];
  /** Resolves when an attempt of the episode with this marker arrives (or one already did) at `step`. */
  waitForAttempt(marker: string, step: number): Promise<void>;
  /** Sends a signal (SIGKILL: the process dies at once) and waits for the process to end. */
  kill(signal?: Deno.Signal): Promise<void>;
}

const SELF = fileURLToPath(import.meta.url);

/** Starts a fixture model server process that will listen on `port` (0: a free one) once told to. */
export async function prepareModelServerProcess(
  options: Omit<FixtureModelServerOptions, "port" | "onAttempt">,
  port = 0,
): Promise<ModelServerProcess> {
  const file = await Deno.makeTempFile({ prefix: "webmix-model-proc-", suffix: ".json" });
  await Deno.writeTextFile(file, JSON.stringify({ ...options, port }));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", "--allow-read", SELF, file],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const attempts: ProcessAttempt[] = [];
  const waiters: { test: (a: ProcessAttempt) => boolean; resolve: () => void }[] = [];
  let onListening: (url: string) => void = () => {};
  const listening = new Promise<string>((resolve) => (onListening = resolve));
  const stdoutDone = (async () => {
    let buf = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buf += chunk;
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const event = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (event.event === "listening") onListening(`http://127.0.0.1:${event.port}/v1`);
        if (event.event !== "attempt") continue;
        const attempt = { episode: event.episode, step: event.step };
        attempts.push(attempt);
        for (const w of waiters.filter((w) => w.test(attempt))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    }
  })();
  const stdin = child.stdin.getWriter();
  let ended = false;
  const kill = async (signal: Deno.Signal = "SIGKILL") => {
    if (!ended) {
      ended = true;
      try {
        child.kill(signal);
      } catch { /* already gone */ }
      await stdin.close().catch(() => {});
    }
    await child.status;
    await stdoutDone;
    await Deno.remove(file).catch(() => {});
  };
  return {
    attempts,
    async listen() {
      await stdin.write(new TextEncoder().encode("listen\n"));
      const exited = child.status.then((s) => {
        throw new Error(`the model server process ended (code ${s.code}) before listening on port ${port}`);
      });
      return await Promise.race([listening, exited]);
    },
    waitForAttempt(marker, step) {
      const test = (a: ProcessAttempt) => a.episode === marker && a.step === step;
      if (attempts.some(test)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
    kill,
    [Symbol.asyncDispose]: () => kill(),
  };
}

/** Prepares a server process and has it listen at once. */
export async function startModelServerProcess(
  options: Omit<FixtureModelServerOptions, "port" | "onAttempt">,
  port = 0,
): Promise<ModelServerProcess & { url: string; port: number }> {
  const proc = await prepareModelServerProcess(options, port);
  const url = await proc.listen();
  return Object.assign(proc, { url, port: Number(new URL(url).port) });
}

if (import.meta.main) {
  const options = JSON.parse(await Deno.readTextFile(Deno.args[0])) as FixtureModelServerOptions;
  const print = (event: Record<string, unknown>) => console.log(JSON.stringify(event));
  const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("listen\n")) {
    const { value, done } = await lines.read();
    if (done) Deno.exit(0);
    text += value;
  }
  const server = startFixtureModelServer({
    ...options,
    onAttempt: (r) => print({ event: "attempt", episode: r.episode, step: r.step }),
  });
  print({ event: "listening", port: server.port });
  // Until killed, or until the test closes stdin.
  while (!(await lines.read()).done);
  await server.close();
}
