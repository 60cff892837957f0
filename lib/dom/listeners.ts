/// <reference lib="dom" />
/**
 * Page-side: the record of which elements a page's scripts gave a click, mousedown, pointerdown, mouseup or
 * pointerup listener (a pie menu or a radial picker acts on the button's release only). Such elements (a
 * `<span class="link">` bound with addEventListener, a `div` that acts as Submit, the rows of a list) carry no
 * role, href or onclick attribute, so the markup alone does not show that a person can click them.
 *
 * watchClickListeners runs before the page's scripts in every frame (lib/browser installs LISTENER_WATCH_SCRIPT
 * with Page.addScriptToEvaluateOnNewDocument). It wraps EventTarget.prototype.addEventListener and
 * removeEventListener, and keeps a WeakMap from element to its number of such listeners on a non-enumerable,
 * read-only global (LISTENER_GLOBAL); snapshotPage reads it. Nothing in the DOM changes; the wrappers keep their
 * native names, lengths and toString. Listeners on window, document or shadow roots are not recorded (delegation
 * roots: snapshotPage's cursor rule covers what they make clickable). A `once` listener stays counted after it ran.
 */

/** The global under which the page keeps the listener record: a WeakMap<Element, number>. */
export const LISTENER_GLOBAL = "__webmixClickListeners";

/**
 * Page-side: installs the listener record in this window (idempotent). Closes over nothing: serialised with
 * toString().
 */
function watchClickListeners(globalName: string): void {
  const g = globalThis as unknown as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(g, globalName)) return;
  const counts = new WeakMap<Element, number>();
  // Per element: the listeners recorded, so a duplicate add or an unknown remove changes nothing (as the DOM does).
  const entries = new WeakMap<Element, { type: string; fn: unknown; capture: boolean }[]>();
  Object.defineProperty(g, globalName, { value: counts, enumerable: false, writable: false, configurable: false });
  const TYPES = new Set(["click", "mousedown", "pointerdown", "mouseup", "pointerup"]);
  const proto = EventTarget.prototype;
  const nativeAdd = proto.addEventListener;
  const nativeRemove = proto.removeEventListener;
  const capture = (o: unknown) => typeof o === "boolean" ? o : !!(o && (o as { capture?: boolean }).capture);
  const tracked = (target: unknown, type: unknown, fn: unknown) =>
    fn !== null && fn !== undefined && typeof type === "string" && TYPES.has(type) &&
    target instanceof Element;
  const wrappers = {
    addEventListener(this: EventTarget, type: string, fn: unknown, options?: unknown) {
      if (tracked(this, type, fn)) {
        const el = this as Element;
        const list = entries.get(el) ?? [];
        const c = capture(options);
        if (!list.some((e) => e.type === type && e.fn === fn && e.capture === c)) {
          list.push({ type, fn, capture: c });
          entries.set(el, list);
          counts.set(el, list.length);
        }
      }
      // deno-lint-ignore no-explicit-any
      return nativeAdd.call(this, type, fn as any, options as any);
    },
    removeEventListener(this: EventTarget, type: string, fn: unknown, options?: unknown) {
      if (tracked(this, type, fn)) {
        const el = this as Element;
        const list = entries.get(el);
        const c = capture(options);
        const at = list ? list.findIndex((e) => e.type === type && e.fn === fn && e.capture === c) : -1;
        if (list && at >= 0) {
          list.splice(at, 1);
          counts.set(el, list.length);
        }
      }
      // deno-lint-ignore no-explicit-any
      return nativeRemove.call(this, type, fn as any, options as any);
    },
  };
  for (const [name, native] of [["addEventListener", nativeAdd], ["removeEventListener", nativeRemove]] as const) {
    const wrapper = wrappers[name];
    Object.defineProperty(wrapper, "length", { value: native.length });
    Object.defineProperty(wrapper, "toString", { value: () => native.toString(), enumerable: false });
    Object.defineProperty(proto, name, { value: wrapper, writable: true, enumerable: true, configurable: true });
  }
}

/** The init script lib/browser installs in every tab: watchClickListeners run in each new document, every frame. */
export const LISTENER_WATCH_SCRIPT = `(${watchClickListeners.toString()})(${JSON.stringify(LISTENER_GLOBAL)});`;
