/**
 * Checking, before any work, that deno's permissions let a script reach the servers it was told about. The tasks
 * in deno.json allow 127.0.0.1 and localhost only, so a model server or judge on another host (usual on a cluster)
 * would otherwise fail mid-run with a raw permission error.
 */
import { UsageError } from "../errors/mod.ts";
import { isHttpUrl } from "./cli.ts";

/** A server a script will connect to: the flag (or variable) that names it, and its URL. */
export interface Reach {
  /** The flag or variable that names the server, as messages show it ("--vllm"). */
  what: string;
  /** The server's URL. */
  url: string;
}

/** `host:port` of an http(s) URL, the default port filled in (the form deno's --allow-net takes). */
function hostPort(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
}

/**
 * Checks that this process may connect to each server of `reach`, before any work starts.
 * @param script the script and the permissions it runs with besides --allow-net, for the command the error shows
 *   (e.g. "eval.ts" and "--allow-read --allow-write ...")
 * @throws UsageError naming a URL that is not http(s), or each server the process may not reach, with one command
 *   that allows them all and the deno task that allows any host (`<script>:remote`, e.g. eval:remote in deno.json).
 */
export async function checkNetAccess(reach: readonly Reach[], script: string, otherFlags: string): Promise<void> {
  const refused: { what: string; host: string }[] = [];
  for (const { what, url } of reach) {
    if (!isHttpUrl(url)) throw new UsageError(`${what} "${url}" is not an http(s) URL`);
    const host = hostPort(url);
    const { state } = await Deno.permissions.query({ name: "net", host });
    if (state !== "granted" && !refused.some((r) => r.host === host)) refused.push({ what, host });
  }
  if (refused.length === 0) return;
  const named = refused.map((r) => `${r.what} names ${r.host}`).join(", ");
  const hosts = refused.map((r) => r.host).join(",");
  const task = script.replace(/\.ts$/, "");
  throw new UsageError(
    `${named}, which this process may not connect to (deno task ${task} allows 127.0.0.1 and localhost only). Run ` +
      `${script} with ${refused.length > 1 ? "those hosts" : "that host"} allowed:\n  deno run ` +
      `--allow-net=127.0.0.1,localhost,${hosts} ${otherFlags} ${script} ...\nor with any host allowed:\n  deno task ` +
      `${task}:remote ...\n(see docs/cluster.md, "Permissions")`,
  );
}
