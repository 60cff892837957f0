/// <reference lib="dom" />
/**
 * The viewer page's script, serialised into viewer.html: it runs in the page, so it imports nothing at run time and
 * closes over nothing. It reads the list from the `viewer-data` JSON block, filters it (status, reason, family, site,
 * arm, text), and parses an episode's own JSON block (`ep-<i>`) only when the episode is opened; the request texts and
 * system prompts go into the DOM only when their <details> is opened, so a run of thousands of episodes stays quick.
 * Every value goes in as text (textContent, attributes), never as HTML.
 */
import type { EpisodeDetail, ViewerEpisode, ViewStep } from "./viewer_data.ts";
import type { ViewEvidence } from "./viewer_evidence.ts";

/** The page's list data (viewer-data). */
export interface ViewerData {
  title: string;
  settings: unknown;
  /** What the reader should know about the results (lib/report loadRun's notes: stale or superseded lines). */
  notes: string[];
  statuses: readonly string[];
  /** The reasons the episodes carry (ViewerEpisode.reason), in the report's order (lib/report orderReasons). */
  reasons: string[];
  /** What each of `reasons` means, when it is known (lib/grading REASONS): the badge's tooltip. */
  reasonMeanings: Record<string, string>;
  episodes: ViewerEpisode[];
  /** System prompt texts by SHA-256. */
  prompts: Record<string, string>;
}

/** Runs in the page: builds the filters and the list, and opens the episode the URL's hash names. */
export function viewerApp(): void {
  type Kid = Node | string | null | undefined | false;
  const $ = (id: string) => document.getElementById(id)!;
  const present = (kids: Kid[]) => kids.filter((k): k is Node | string => k !== null && k !== undefined && k !== false);
  const h = (tag: string, attrs: Record<string, string> | null, ...kids: Kid[]): HTMLElement => {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs ?? {})) el.setAttribute(k, v);
    el.append(...present(kids));
    return el;
  };
  const data: ViewerData = JSON.parse($("viewer-data").textContent!);
  const eps = data.episodes;
  const facets = ["status", "reason", "family", "site", "arm"] as const;
  const haystack = eps.map((e) =>
    [e.episode, e.task_id, e.macro, e.instruction, e.detail, e.reason, e.answer, e.error].join("\n").toLowerCase()
  );
  const link = (ep: string, file: string) => `${encodeURIComponent(ep)}/${encodeURIComponent(file)}`;
  // JSON on one line when it fits, else one member per line, nested members again on one line when they fit.
  const json = (v: unknown, pad = ""): string => {
    const flat = JSON.stringify(v) ?? "null";
    if (flat.length <= 100 - pad.length || typeof v !== "object" || v === null) return flat;
    const inner = pad + "  ";
    const items = Array.isArray(v)
      ? v.map((x) => inner + json(x, inner))
      : Object.entries(v).map(([k, x]) => `${inner}${JSON.stringify(k)}: ${json(x, inner)}`);
    return Array.isArray(v) ? `[\n${items.join(",\n")}\n${pad}]` : `{\n${items.join(",\n")}\n${pad}}`;
  };
  const call = (a: unknown): string => {
    if (typeof a !== "object" || a === null) return String(a);
    const [name] = Object.keys(a);
    return name === undefined ? "{}" : `${name} ${JSON.stringify((a as Record<string, unknown>)[name])}`;
  };
  const opened = () => {
    try {
      return decodeURIComponent(location.hash.slice(1));
    } catch {
      return ""; // a hash typed by hand that is no URI component names no episode
    }
  };
  const badge = (status: string) => h("span", { class: `badge ${status}` }, status);
  // The rule that failed the episode, beside its status badge; none for an episode no rule failed.
  const reasonBadge = (reason: string) =>
    reason !== "" && h("span", { class: "badge reason", title: data.reasonMeanings[reason] ?? reason }, reason);

  document.title = `viewer · ${data.title}`;
  $("title").textContent = data.title;
  const counts = (key: (typeof facets)[number]) => {
    const c = new Map<string, number>();
    for (const e of eps) c.set(e[key], (c.get(e[key]) ?? 0) + 1);
    return c;
  };
  for (const f of facets) {
    const c = counts(f);
    // Statuses and reasons in their own order; an episode without a reason ("") is no reason to filter by.
    const values = f === "status"
      ? data.statuses.filter((s) => c.has(s))
      : f === "reason"
      ? data.reasons.filter((r) => c.has(r))
      : [...c.keys()].sort();
    const sel = $(`f-${f}`) as HTMLSelectElement;
    sel.hidden = f === "reason" && values.length === 0;
    sel.append(h("option", { value: "" }, `every ${f} (${eps.length})`));
    for (const v of values) sel.append(h("option", { value: v }, `${v || "(none)"} (${c.get(v)})`));
    sel.addEventListener("change", renderList);
  }
  $("q").addEventListener("input", renderList);
  if (data.settings) $("settings").append(h("pre", null, json(data.settings)));
  else $("settings").hidden = true;
  $("notes").replaceChildren(...data.notes.map((n) => h("div", null, n)));

  function renderList(): void {
    const want = facets.map((f) => [f, ($(`f-${f}`) as HTMLSelectElement).value] as const);
    const q = ($("q") as HTMLInputElement).value.trim().toLowerCase();
    const rows: HTMLElement[] = [];
    eps.forEach((e, i) => {
      if (want.some(([f, v]) => v && e[f] !== v) || (q && !haystack[i].includes(q))) return;
      const row = h(
        "tr",
        { "data-i": String(i), class: e.episode === opened() ? "open" : "" },
        h("td", null, badge(e.status), reasonBadge(e.reason)),
        h("td", { class: "name", title: e.instruction }, e.episode),
        h("td", null, e.site),
        h("td", null, e.family),
        h("td", null, e.arm),
        h("td", { class: "num" }, e.steps === null ? "" : String(e.steps)),
        h("td", { class: "num" }, e.duration_s === null ? "" : `${e.duration_s}s`),
      );
      row.addEventListener("click", () => location.hash = encodeURIComponent(e.episode));
      rows.push(row);
    });
    $("rows").replaceChildren(...rows);
    $("shown").textContent = `${rows.length} of ${eps.length} episodes`;
  }

  function field(label: string, value: unknown, cls = ""): HTMLElement | null {
    if (value === null || value === undefined || value === "") return null;
    return h("div", { class: `field ${cls}` }, h("b", null, label), typeof value === "string" ? value : json(value));
  }

  function list(title: string, items: string[], more = 0): HTMLElement {
    const n = items.length + more;
    return h(
      "div",
      { class: "list" },
      h("b", null, `${title} (${n})`),
      n ? h("ul", null, ...items.map((t) => h("li", null, t)), more > 0 && h("li", null, `… ${more} more`)) : " none",
    );
  }

  function lazyDetails(summary: string, fill: () => Kid[]): HTMLElement {
    const d = h("details", null, h("summary", null, summary));
    d.addEventListener("toggle", () => {
      if (d.childElementCount === 1) d.append(...present(fill()));
    });
    return d;
  }

  function evidence(ev: ViewEvidence): HTMLElement {
    return h(
      "div",
      { class: "evidence" },
      field("Answer", ev.answer),
      field("Final page", ev.final),
      list("Data changes", ev.changes),
      list("Requests", ev.requests, ev.more.requests),
      list("Clipboard", ev.clip),
      ev.actions.length > 0 && list("Recorded actions", ev.actions, ev.more.actions),
      ev.blocked.length > 0 && list("Blocked requests", ev.blocked),
    );
  }

  function step(ep: string, s: ViewStep, lines: string[]): HTMLElement {
    const text = s.text && s.text.map((i) => lines[i]).join("\n");
    const u = s.usage ?? {};
    const tokens = u.prompt_tokens !== undefined ? `${u.prompt_tokens} → ${u.completion_tokens ?? "?"} tokens` : "";
    const head = h(
      "h3",
      null,
      s.kind === "planner" ? `Planner turn ${s.turn ?? ""}` : `Step ${s.step}`,
      ...[s.model, s.family, s.latency_ms !== undefined && `${s.latency_ms} ms`, tokens]
        .filter(Boolean).map((t) => h("span", { class: "tag" }, String(t))),
      s.gated && h("span", { class: "tag gated" }, "gated"),
    );
    const p = s.parsed ?? {};
    const reply = h(
      "div",
      { class: "reply" },
      ...[["Thinking", "thinking"], ["Evaluation", "evaluation_previous_goal"], ["Memory", "memory"], [
        "Next goal",
        "next_goal",
      ]].map(([label, key]) => field(label, p[key])),
      ...Object.keys(p).filter((k) =>
        !["thinking", "evaluation_previous_goal", "memory", "next_goal", "action"].includes(k)
      ).map((k) => field(k, p[k])),
    );
    const actions = h(
      "ol",
      { class: "actions" },
      ...s.actions.map((a) =>
        h(
          "li",
          { class: a.ok ? "ok" : "fail" },
          h("code", null, call(a.action)),
          a.error ? h("span", { class: "err" }, ` ✗ ${a.error}`) : h("span", null, " ✓"),
          a.extracted && h("div", { class: "extracted" }, a.extracted),
        )
      ),
    );
    const sys = s.system;
    return h(
      "section",
      { class: "step" },
      head,
      h(
        "div",
        { class: "cols" },
        s.screenshot
          ? h(
            "a",
            { href: link(ep, s.screenshot), target: "_blank" },
            h("img", { src: link(ep, s.screenshot), loading: "lazy", alt: s.screenshot }),
          )
          : h("div", { class: "noshot" }, "no screenshot"),
        h(
          "div",
          null,
          (s.title || s.url) && h("div", { class: "url" }, `${s.title} — ${s.url}`),
          s.note && field("Router note", s.note, "note"),
          s.error && field("Error", s.error, "err"),
          reply,
          s.actions.length > 0 && actions,
          text !== null &&
            lazyDetails(`What the model was shown (${text.length} chars)`, () => [h("pre", null, text)]),
          sys && lazyDetails(`System prompt ${sys.slice(0, 12)}`, () => [
            h("a", { href: `prompts/${sys}.txt`, target: "_blank" }, `prompts/${sys}.txt`),
            data.prompts[sys] !== undefined && h("pre", null, data.prompts[sys]),
          ]),
          s.reply !== null && lazyDetails("Raw reply", () => [h("pre", null, s.reply)]),
        ),
      ),
    );
  }

  function show(): void {
    const i = eps.findIndex((e) => e.episode === opened());
    for (const tr of $("rows").children) tr.classList.toggle("open", tr.getAttribute("data-i") === String(i));
    if (i < 0) return;
    const e = eps[i];
    const d: EpisodeDetail = JSON.parse($(`ep-${i}`).textContent!);
    const r = d.result;
    const models = [...new Set(r.models ?? [])].join(", ");
    $("detail").replaceChildren(...present([
      h("h2", null, badge(e.status), reasonBadge(e.reason), ` ${e.episode}`),
      h(
        "div",
        { class: "meta" },
        [e.task_id, e.macro, e.family, e.site, e.arm, d.kind, `repeat ${e.repeat}`].filter(Boolean).join(" · "),
      ),
      h("h3", null, "Task"),
      h("p", { class: "instruction" }, d.instruction || "(no grade_inputs.json)"),
      h("h3", null, "Result"),
      h(
        "div",
        { class: "result" },
        field("Status", e.status),
        field(
          "Reason",
          e.reason && `${e.reason}${data.reasonMeanings[e.reason] ? `: ${data.reasonMeanings[e.reason]}` : ""}`,
        ),
        field("Detail", e.detail, e.status === "passed" ? "" : "err"),
        field("Error", e.error, "err"),
        field("Steps", e.steps),
        field("Done", r.done),
        field("Answer", e.answer),
        field("Duration", e.duration_s === null ? null : `${e.duration_s} s`),
        field("Models", models),
        field("Action errors", r.errors?.join("\n"), "err"),
        field("Arm failure", r.arm_failure, "err"),
        field("Retried", r.retried),
        field("Timing", r.timing),
      ),
      h("h3", null, "Grade"),
      d.check !== null && openDetails("Check", d.check),
      d.verifier !== null && openDetails("Verifier", d.verifier),
      d.evidence ? evidence(d.evidence) : h("p", null, "no grade_inputs.json"),
      d.final && h("p", null, h("a", { href: link(e.episode, d.final), target: "_blank" }, "final.png")),
      d.problems.length > 0 && list("Unreadable files", d.problems),
      h("h3", null, `Steps (${d.steps.length}${d.source ? ` from ${d.source}` : ""})`),
      ...d.steps.map((s) => step(e.episode, s, d.lines)),
    ]));
    $("detail").scrollTop = 0;
  }

  function openDetails(title: string, value: unknown): HTMLElement {
    return h("details", { open: "" }, h("summary", null, title), h("pre", null, json(value)));
  }

  addEventListener("hashchange", show);
  renderList();
  show();
}
