/**
 * The browser-use 0.x request of one step: the system prompt, and one user message holding the agent history, the
 * agent state (user request, step info), the browser state (tabs, indexed elements, visible text), the read state
 * and the router's note, followed by the viewport screenshot as a data-URL image part. Pure: the loop passes what
 * it observed.
 * @module
 */
import { imagePart } from "../llm/mod.ts";

/** What the model is shown of the browser at one step. */
export interface StepView {
  url: string;
  title: string;
  tabs: { id: string; url: string; title: string }[];
  currentTab: string;
  /** The indexed elements in browser-use's layout (lib/dom formatElements). */
  elementsText: string;
  pixelsAbove: number;
  pixelsBelow: number;
  viewport: { width: number; height: number };
  screenshot?: Uint8Array;
  screenshotMime?: "image/png" | "image/jpeg";
}

/** One earlier step, as the agent history shows it. */
export interface HistoryStep {
  step: number;
  evaluation?: string;
  memory?: string;
  nextGoal?: string;
  /** One line per action: "click {index: 4}: ok", or its error. */
  results: string[];
  /** A reply that could not be used (unparseable, schema violation). */
  error?: string;
}

export interface StepMessagesInput {
  systemPrompt: string;
  task: string;
  step: number;
  maxSteps: number;
  /** The frozen date the sites show, so "today" means the same to the model. */
  now: string;
  history: HistoryStep[];
  view: StepView;
  readState?: string;
  routerNote?: string;
}

export type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
type StepMessage = { role: "system"; content: string } | { role: "user"; content: ContentPart[] };

function historyText(history: HistoryStep[]): string {
  if (history.length === 0) return "<sys>Agent initialized</sys>";
  return history.map((h) => {
    const lines = [`<step_${h.step}>`];
    if (h.error) lines.push(`Error: ${h.error}`);
    else {
      lines.push(`Evaluation of Previous Step: ${h.evaluation ?? ""}`);
      lines.push(`Memory: ${h.memory ?? ""}`);
      lines.push(`Next Goal: ${h.nextGoal ?? ""}`);
      lines.push("Action Results:", ...h.results.map((r, i) => `Action ${i + 1}/${h.results.length}: ${r}`));
    }
    lines.push(`</step_${h.step}>`);
    return lines.join("\n");
  }).join("\n");
}

function browserText(v: StepView): string {
  const pages = (px: number) => (px / Math.max(1, v.viewport.height)).toFixed(1);
  const tabs = v.tabs.map((t) => `Tab ${t.id}: ${t.url} - ${t.title.slice(0, 60)}`).join("\n");
  return [
    `Current tab: ${v.currentTab}`,
    `Available tabs:\n${tabs}`,
    `Page info: ${v.viewport.width}x${v.viewport.height}px viewport, ${pages(v.pixelsAbove)} pages above, ` +
    `${pages(v.pixelsBelow)} pages below`,
    "Interactive elements from top layer of the current page inside the viewport:",
    v.elementsText || "empty page",
  ].join("\n");
}

/** The user message's text (everything but the screenshot). */
export function stepText(i: StepMessagesInput): string {
  const parts = [
    `<agent_history>\n${historyText(i.history)}\n</agent_history>`,
    `<agent_state>\n<user_request>\n${i.task}\n</user_request>\n<step_info>\nStep ${i.step} of ${i.maxSteps} max ` +
    `possible steps\nCurrent date: ${i.now.slice(0, 10)}\n</step_info>\n</agent_state>`,
    `<browser_state>\n${browserText(i.view)}\n</browser_state>`,
  ];
  if (i.readState) parts.push(`<read_state>\n${i.readState}\n</read_state>`);
  if (i.routerNote) parts.push(`<router_note>\n${i.routerNote}\n</router_note>`);
  return parts.join("\n");
}

/** The step's two messages: system, then user (text, then the screenshot when there is one). */
export function buildStepMessages(i: StepMessagesInput): StepMessage[] {
  const content: ContentPart[] = [{ type: "text", text: stepText(i) }];
  if (i.view.screenshot) content.push(imagePart(i.view.screenshot, i.view.screenshotMime));
  return [{ role: "system", content: i.systemPrompt }, { role: "user", content }];
}
