/// <reference lib="dom" />
/**
 * The recorder, served in every sandbox page as /_sandbox/recorder.js: it posts the user's actions (click, input,
 * change, key, drag, scroll, select, upload) with a description of their target, and observations (page loads),
 * to /_sandbox/record; clipboard writes go to /_sandbox/clipboard. `window.__webmix.flush()` resolves once every
 * pending event has reached the server, so a grader reads a complete stream.
 *
 * This function runs in the page: it is serialised with toString(), so it must not close over anything.
 */
export function recorderMain(): void {
  type Ev = Record<string, unknown>;
  const w = window as unknown as { __webmix?: unknown };
  if (w.__webmix) return;
  const queue: Ev[] = [];
  const pending = new Set<Promise<unknown>>();
  const typing = new Map<Element, ReturnType<typeof setTimeout>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let scrollTimer: ReturnType<typeof setTimeout> | undefined;
  let dragSource: Element | null = null;

  const post = (path: string, payload: unknown) => {
    const p = fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
      keepalive: true,
      credentials: "same-origin",
    }).catch(() => undefined);
    pending.add(p);
    p.finally(() => pending.delete(p));
  };
  const send = () => {
    timer = undefined;
    if (queue.length) post("/_sandbox/record", { entries: queue.splice(0) });
  };
  // Every action gets an id (this page's random prefix and a counter) and `n`, the time on the browser's clock
  // (comparable across the session's pages), so that a clipboard write can name the action it answered (`cause`)
  // and writes keep the order the pages made them in.
  const page = Math.random().toString(36).slice(2, 10);
  let count = 0;
  const now = () => performance.timeOrigin + performance.now();
  // The click or key being dispatched: a clipboard write made by its handlers (in the same task, or a microtask of
  // it) answers it. Cleared by the next task, so a write the agent makes later on its own answers nothing.
  let active: string | undefined;
  const emit = (ev: Ev) => {
    const entry: Ev = { ...ev, url: location.href, t: Date.now() };
    if (ev.type === "action") {
      entry.id = `${page}:${++count}`;
      entry.n = now();
      if (ev.action === "click" || ev.action === "key") {
        const id = entry.id as string;
        active = id;
        setTimeout(() => {
          if (active === id) active = undefined;
        }, 0);
      }
    }
    queue.push(entry);
    if (timer === undefined) timer = setTimeout(send, 30);
  };
  const clipboardWrite = (text: string) => {
    post("/_sandbox/clipboard", { text, url: location.href, n: now(), ...(active ? { cause: active } : {}) });
  };
  // A password field's value never goes into a description (descriptions end up in recordings and reports).
  const valueOf = (el: Element) => (el as HTMLInputElement).type === "password" ? "" : (el as HTMLInputElement).value;
  const text = (el: Element) =>
    ((el.getAttribute("aria-label") || (el as HTMLElement).innerText || el.getAttribute("placeholder") ||
      el.getAttribute("title") || valueOf(el) || "") + "").replace(/\s+/g, " ").trim().slice(0, 80);
  const target = (raw: EventTarget | null): Element | null => {
    const el = raw instanceof Element ? raw : null;
    return el?.closest(
      "a,button,input,select,textarea,label,summary,[role],[draggable=true],[data-card],li,tr,th,td,h1,h2,h3",
    ) ?? el;
  };
  const describe = (el: Element | null) => {
    if (!el) return "";
    const id = el.id ? `#${el.id}` : "";
    const name = el.getAttribute("name") ? `[name=${el.getAttribute("name")}]` : "";
    const t = text(el);
    return `${el.tagName.toLowerCase()}${id}${name}${t ? ` "${t}"` : ""}`;
  };
  // The landmark an element sits in (`nav.menu`, `form#checkout`): where a click happened, for method checks
  // ("use the menu") that the target's text alone cannot tell apart from a link elsewhere on the page.
  const regionOf = (el: Element | null) => {
    const r = el?.closest("nav,header,footer,aside,dialog,[role=dialog],[role=menu],form,main");
    if (!r) return "";
    const cls = (r.getAttribute("class") ?? "").trim().split(/\s+/)[0];
    return `${r.tagName.toLowerCase()}${r.id ? `#${r.id}` : ""}${cls ? `.${cls}` : ""}`;
  };
  const flushTyping = () => {
    for (const [el, h] of typing) {
      clearTimeout(h);
      emit({ type: "action", action: "input", target: describe(el), value: (el as HTMLInputElement).value });
    }
    typing.clear();
  };

  document.addEventListener("click", (e) => {
    const el = target(e.target);
    emit({ type: "action", action: "click", target: describe(el), region: regionOf(el) });
  }, true);
  document.addEventListener("input", (e) => {
    const el = e.target as HTMLInputElement;
    if (!(el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) || el.type === "file") return;
    if (["checkbox", "radio", "range"].includes(el.type)) return;
    clearTimeout(typing.get(el));
    typing.set(
      el,
      setTimeout(() => {
        typing.delete(el);
        emit({ type: "action", action: "input", target: describe(el), value: el.value });
      }, 400),
    );
  }, true);
  document.addEventListener("change", (e) => {
    const el = e.target as HTMLInputElement;
    if (typing.has(el)) {
      clearTimeout(typing.get(el));
      typing.delete(el);
      emit({ type: "action", action: "input", target: describe(el), value: el.value });
      return;
    }
    if (el instanceof HTMLSelectElement) {
      const opt = el.selectedOptions[0];
      emit({ type: "action", action: "select", target: describe(el), value: opt ? opt.text.trim() : el.value });
    } else if (el.type === "file") {
      const names = Array.from(el.files ?? []).map((f) => f.name).join(", ");
      emit({ type: "action", action: "upload", target: describe(el), value: names });
    } else if (el.type === "checkbox" || el.type === "radio") {
      emit({ type: "action", action: "change", target: describe(el), value: el.checked ? el.value || "on" : "" });
    } else {
      emit({ type: "action", action: "change", target: describe(el), value: el.value });
    }
  }, true);
  document.addEventListener("keydown", (e) => {
    const special = e.key.length > 1 && !["Shift", "Control", "Alt", "Meta"].includes(e.key);
    if (!special && !e.ctrlKey && !e.metaKey) return;
    const combo = [e.ctrlKey && "Control", e.metaKey && "Meta", e.altKey && "Alt", e.key].filter(Boolean).join("+");
    if (e.key === "Enter") flushTyping();
    emit({ type: "action", action: "key", target: describe(target(e.target)), value: combo });
  }, true);
  document.addEventListener("dragstart", (e) => {
    dragSource = target(e.target);
  }, true);
  // A drop is described by the zone that takes it (a board column, a list), not by whatever element lies under the
  // pointer (a card already in that column): the closest named container of the drop point, else the point itself.
  const dropZone = (el: Element | null) =>
    el?.closest("[data-status][id],[data-drop][id],section[id],ul[id],ol[id],[role=list][id]") ?? target(el);
  document.addEventListener("drop", (e) => {
    const at = e.target instanceof Element ? e.target : null;
    emit({
      type: "action",
      action: "drag",
      target: describe(dragSource),
      value: describe(dropZone(at)),
      ...(at ? { point: describe(target(at)) } : {}),
    });
    dragSource = null;
  }, true);
  addEventListener("scroll", () => {
    clearTimeout(scrollTimer);
    scrollTimer = setTimeout(() => emit({ type: "action", action: "scroll", target: "", value: scrollY }), 250);
  }, true);
  document.addEventListener("copy", () => {
    const sel = String(getSelection() ?? "");
    if (sel) clipboardWrite(sel);
  }, true);
  const clip = navigator.clipboard;
  if (clip?.writeText) {
    const write = clip.writeText.bind(clip);
    clip.writeText = (t: string) => {
      clipboardWrite(String(t));
      return write(t).catch(() => undefined);
    };
  }
  // The referrer says how the page was reached: a link, a form or a redirect from one has the page it came from; a
  // URL typed into the address bar has none (a method bound to the final page needs the former). `history` is the
  // tab's history length: 1 for a page that began its tab (a link opened in a new tab), more after a page before it.
  const loaded = () =>
    emit({
      type: "observation",
      kind: "page_load",
      title: document.title,
      referrer: document.referrer,
      history: history.length,
    });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", loaded);
  else loaded();
  addEventListener("pagehide", () => {
    flushTyping();
    send();
  });
  w.__webmix = {
    /** Sends what is queued and waits for every post in flight. */
    flush: async () => {
      flushTyping();
      clearTimeout(timer);
      send();
      await Promise.all([...pending]);
    },
  };
}
