/**
 * A browser's watchdog: while episodes run, it pings Chromium (a DevTools round trip the browser process answers
 * at once, Browser.getVersion) every interval; a ping unanswered within the bound means a browser that is frozen
 * (SIGSTOP, a Slurm suspension, a hung browser process), not an agent that is slow, and the owner is told once.
 */

/** How often a running browser is pinged. */
const PING_EVERY_MS = 1000;
/** How long past the bound an answer may still be read (the harness's own event loop may have been busy). */
const LATE_READ_MS = 100;

/** Pings a browser while `busy()` holds; calls `onSilent` once when a ping goes unanswered for `boundMs`. */
export class Watchdog {
  #looping = false;
  #fired = false;

  constructor(
    private readonly ping: () => Promise<unknown>,
    private readonly boundMs: number,
    private readonly busy: () => boolean,
    private readonly onSilent: () => void,
  ) {}

  /** Starts pinging (when it is not already), until nothing runs or the browser was found silent. */
  start(): void {
    if (this.#looping || this.#fired) return;
    this.#looping = true;
    void this.#loop().finally(() => (this.#looping = false));
  }

  async #loop(): Promise<void> {
    while (this.busy() && !this.#fired) {
      if (!(await this.answers())) return;
      await new Promise<void>((r) => Deno.unrefTimer(setTimeout(r, PING_EVERY_MS)));
    }
  }

  /**
   * Whether the browser answers a ping within the bound; false calls onSilent (once). A ping that fails at once
   * (the connection closed) is an answer: a dead browser is known otherwise.
   */
  async answers(): Promise<boolean> {
    if (this.#fired) return false;
    let answered = false;
    const ping = this.ping().then(() => true, () => true).then((a) => (answered = a));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([ping, new Promise<void>((r) => (timer = setTimeout(r, this.boundMs)))]);
    clearTimeout(timer);
    // An answer that arrived while this process was too busy to read it is read now, before any verdict.
    if (!answered) await new Promise((r) => setTimeout(r, LATE_READ_MS));
    if (!answered && !this.#fired) {
      this.#fired = true;
      this.onSilent();
    }
    return answered;
  }
}
