/**
 * No orphans: when the harness process dies by SIGKILL (no handler runs), its Chromium and every process of
 * Chromium's process group (zygotes, renderers, utilities) exit too.
 */
import assert from "node:assert/strict";
import { until } from "./browser_fixture.ts";
import { killChromium, liveInGroup, profileDirOf } from "./support/process_tree.ts";

/** Reads the child's first stdout line: `{"pid": …, "downloadDir": …}`. */
async function firstLine(stdout: ReadableStream<Uint8Array>): Promise<{ pid: number; downloadDir: string }> {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the child ended before printing Chromium's pid: ${JSON.stringify(text)}`);
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return JSON.parse(text.split("\n")[0]);
}

Deno.test("Chromium and its process group exit when the harness is SIGKILLed", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", new URL("./support/orphan_child.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  let pid = 0;
  let profile: string | null = null;
  let downloadDir = "";
  try {
    ({ pid, downloadDir } = await firstLine(child.stdout));
    profile = profileDirOf(pid);
    assert.ok(liveInGroup(pid).length >= 2, `Chromium ${pid} runs with its helpers: ${liveInGroup(pid)}`);
    child.kill("SIGKILL");
    await child.status;
    const gone = await until(() => liveInGroup(pid).length === 0, 10_000);
    assert.ok(gone, `still running 10 s after the harness died: ${liveInGroup(pid).join(", ")}`);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* dead already */ }
    await child.stdout.cancel().catch(() => undefined);
    if (pid) killChromium(pid); // what a failure left running
    for (const dir of [profile, downloadDir]) if (dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
