/** The agent's actions as the evidence's action events; the evidence's format is lib/protocol's (evidence.ts). */
import { HarnessError } from "../errors/mod.ts";
import type { ActionEvent } from "../protocol/mod.ts";

/** A step of the router trace: the actions of one model reply, each `{name: params}` (or `{name, params}`). */
export interface TraceStep {
  /** The reply's actions, in order. */
  action?: readonly unknown[];
  /** The step's other fields, not read here. */
  [field: string]: unknown;
}

// action name → [event kind, the params that become the value, the first one given]. browser-use 0.x's older names
// (lib/tasks' OLD_NAMES) become the events of the actions they run as: a recorded reply keeps the name the model used.
const KINDS: Record<string, [string, string[] | null]> = {
  input: ["type", ["text"]],
  input_text: ["type", ["text"]],
  send_keys: ["key", ["keys", "text"]],
  select_dropdown: ["select", ["text"]],
  select_dropdown_option: ["select", ["text"]],
  click: ["click", null],
  click_element_by_index: ["click", null],
  click_element: ["click", null],
  go_to_url: ["navigate", null],
  open_tab: ["navigate", null],
  scroll_down: ["scroll", null],
  scroll_up: ["scroll", null],
  get_dropdown_options: ["dropdown_options", null],
  drag_drop: ["drag", null],
  done: ["answer", ["text"]],
};

function nameAndParams(action: unknown, where: string): [string, Record<string, unknown> | null] {
  if (typeof action === "object" && action !== null && !Array.isArray(action)) {
    const a = action as Record<string, unknown>;
    const keys = Object.keys(a);
    if (keys.length === 2 && typeof a.name === "string" && "params" in a) {
      return [a.name, a.params as Record<string, unknown> | null];
    }
    if (keys.length === 1) return [keys[0], a[keys[0]] as Record<string, unknown> | null];
  }
  throw new HarnessError(`${where}: expected one action {name: params}, got ${JSON.stringify(action)?.slice(0, 80)}`);
}

/**
 * The agent's actions as action events, as the seed's action_events: input → type (value: text), send_keys → key
 * (value: keys, or the text of its `{text}` form), select_dropdown → select (value: text), click → click, done →
 * answer (value: text), any other action keeps its name (no value: hover → hover, drag along a path → drag, scroll
 * at a point → scroll); browser-use 0.x's older names as the actions they run as (input_text → type, ...); then one
 * clipboard_write event per clipboard text.
 */
export function actionEvents(trace: readonly TraceStep[], clip: readonly string[] = []): ActionEvent[] {
  const out: ActionEvent[] = [];
  trace.forEach((step, i) => {
    (step.action ?? []).forEach((action, j) => {
      const [name, params] = nameAndParams(action, `trace[${i}].action[${j}]`);
      const [kind, fields] = KINDS[name] ?? [name, null];
      const ev: ActionEvent = { type: "action", action: kind, target: "" };
      if (fields) ev.value = fields.map((f) => params?.[f]).find((v) => v !== undefined && v !== null) ?? null;
      out.push(ev);
    });
  });
  for (const text of clip) out.push({ type: "action", action: "clipboard_write", target: "", value: text });
  return out;
}
