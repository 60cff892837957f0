/** The model's actions as action events, the form the graders' action checks read (docs/tasks.md, Evidence). */
import type { AgentAction } from "./gate.ts";

/** One action of the agent, as the grader sees it. */
export interface ActionEvent {
  type: "action";
  action: string;
  target: string;
  value?: unknown;
}

const EVENT_OF: Readonly<Record<string, [string, string | null]>> = {
  input: ["type", "text"],
  send_keys: ["key", "keys"],
  select_dropdown: ["select", "text"],
  click: ["click", null],
  done: ["answer", "text"],
};

/**
 * Action events of every action in a router trace: input → type (value: text), send_keys → key (value: keys),
 * select_dropdown → select (value: text), click → click (value: null), done → answer (value: text); any other
 * action keeps its name and has no value.
 */
export function actionEvents(trace: readonly { action: readonly AgentAction[] }[]): ActionEvent[] {
  const events: ActionEvent[] = [];
  for (const entry of trace) {
    for (const action of entry.action) {
      const [name, params] = Object.entries(action)[0] ?? ["", undefined];
      const [kind, field] = EVENT_OF[name] ?? [name, undefined];
      const event: ActionEvent = { type: "action", action: kind, target: "" };
      if (field === null) event.value = null;
      else if (field) event.value = (params as Record<string, unknown> | null | undefined)?.[field] ?? null;
      events.push(event);
    }
  }
  return events;
}
