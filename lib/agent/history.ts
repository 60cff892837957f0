/**
 * history.json's entries in browser-use's AgentHistory layout (0.7 and later: `browser_use.agent.views`), close
 * enough that `AgentHistoryList.load_from_file` validates them: tabs as `{url, title, tab_id, parent_tab_id}`,
 * `interacted_element` per action (browser-use's DOMInteractedElement fields, from this suite's element index),
 * `step_interval` in the metadata, `success` only on a done result. What differs is in docs/output-layout.md.
 * @module
 */
import type { BrowserState } from "../browser/mod.ts";
import type { DomElement } from "../dom/mod.ts";
import type { ActionCall } from "../protocol/mod.ts";
import type { ActionResult } from "./actions.ts";
import type { HistoryItem, InteractedElement } from "../run_folder/mod.ts";

/** A 32-bit FNV-1a hash: a stable number for an element's tag, attributes and text. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The element an action names by index, in browser-use's layout; null for an action without one. */
function interactedElement(action: ActionCall, elements: readonly DomElement[]): InteractedElement | null {
  const params = Object.values(action)[0] as { index?: unknown } | undefined;
  const index = typeof params?.index === "number" ? params.index : undefined;
  const el = index === undefined ? undefined : elements.find((e) => e.index === index);
  if (!el) return null;
  const attributes = Object.fromEntries(
    Object.entries(el.attributes).filter(([, v]) => typeof v === "string"),
  ) as Record<string, string>;
  return {
    // This suite's element index stands for both CDP ids, which it does not keep.
    node_id: el.index,
    backend_node_id: el.index,
    frame_id: null,
    node_type: 1,
    node_value: "",
    node_name: el.tag.toUpperCase(),
    attributes,
    bounds: { ...el.rect },
    x_path: "",
    element_hash: fnv1a(`${el.tag}|${JSON.stringify(attributes)}|${el.text}`),
  };
}

/** The `state` of a history entry: the page the step saw and the element each action named. */
export function historyState(
  state: Pick<BrowserState, "url" | "title" | "tabs" | "snapshot">,
  screenshot: string | null,
  actions: readonly ActionCall[],
): HistoryItem["state"] {
  return {
    url: state.url,
    title: state.title,
    tabs: state.tabs.map((t) => ({ url: t.url, title: t.title, tab_id: t.id, parent_tab_id: null })),
    interacted_element: actions.map((a) => interactedElement(a, state.snapshot.elements)),
    screenshot_path: screenshot,
  };
}

/** One action's result in browser-use's ActionResult layout (`success` is set on a done only, as it requires). */
export function historyResult(r: ActionResult): HistoryItem["result"][number] {
  return {
    is_done: Boolean(r.done),
    success: r.done ? r.done.success : null,
    error: r.ok ? null : r.error ?? "failed",
    extracted_content: r.done?.text ?? r.extracted ?? null,
  };
}

/** A model-free step's model_output: the actions, the reply's fields null (browser-use requires the keys). */
export function actionsOnlyOutput(actions: ActionCall[]): NonNullable<HistoryItem["model_output"]> {
  return { thinking: null, evaluation_previous_goal: null, memory: null, next_goal: null, action: actions };
}
