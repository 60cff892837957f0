/**
 * WebRTC's record. The browser's profile forbids UDP that no proxy carries (see chromium.ts), so STUN and TURN over
 * UDP never leave it, and TURN over TCP meets the recording proxy; but a STUN server reaches no proxy, so a script
 * that runs in every new document reports each ICE server URL a page configures (`stun:127.0.0.2:3478`), as given,
 * through a DevTools binding. A tab that a page opens runs its first document's scripts before the tab is adopted:
 * its ICE servers may go unrecorded, though still unreached.
 */
import type { CDPSession } from "puppeteer-core";

const BINDING = "__webmixIceServer";

/** Runs before the page's scripts: wraps RTCPeerConnection's constructor and setConfiguration. */
function reportIceServers(binding: string): void {
  const g = globalThis as unknown as Record<string, unknown>;
  const report = g[binding] as ((url: string) => void) | undefined;
  const Native = g.RTCPeerConnection as { prototype: { setConfiguration?: (c: unknown) => void } } | undefined;
  if (typeof report !== "function") return;
  delete g[binding]; // the page's scripts do not see it
  if (!Native) return;
  const note = (config: unknown) => {
    try {
      const servers = (config as { iceServers?: unknown })?.iceServers;
      for (const server of Array.isArray(servers) ? servers : []) {
        const urls = server?.urls ?? server?.url;
        for (const url of Array.isArray(urls) ? urls : [urls]) if (typeof url === "string") report(url);
      }
    } catch { /* a hostile config: nothing to report */ }
  };
  const setConfiguration = Native.prototype.setConfiguration;
  if (setConfiguration) {
    Native.prototype.setConfiguration = function (this: unknown, config: unknown) {
      note(config);
      return setConfiguration.call(this, config);
    };
  }
  const wrapped = new Proxy(Native as unknown as new (...a: unknown[]) => object, {
    construct(target, args, newTarget) {
      note(args[0]);
      return Reflect.construct(target, args, newTarget);
    },
  });
  (Native.prototype as { constructor: unknown }).constructor = wrapped;
  g.RTCPeerConnection = wrapped;
  if (g.webkitRTCPeerConnection === Native) g.webkitRTCPeerConnection = wrapped;
}

/**
 * Installs the ICE server report on a tab's DevTools session (which needs Page enabled): `onUrl` gets each URL of
 * every document loaded from now on, in every frame.
 */
export async function watchIceServers(cdp: CDPSession, onUrl: (url: string) => void): Promise<void> {
  cdp.on("Runtime.bindingCalled", (e) => {
    if (e.name === BINDING) onUrl(e.payload);
  });
  await Promise.all([
    cdp.send("Runtime.enable"),
    cdp.send("Runtime.addBinding", { name: BINDING }),
    cdp.send("Page.addScriptToEvaluateOnNewDocument", {
      source: `(${reportIceServers.toString()})(${JSON.stringify(BINDING)});`,
    }),
  ]);
}
