/**
 * A recording as actions of the action language (what the replay arm executes for a human task): the recorder's
 * entries turned back into clicks, typing, selections, keys, drags, uploads and navigations, each element found by
 * a locator built from the recorded target description (`tag#id[name=n] "text"`). Pure.
 */
import { HarnessError } from "../errors/mod.ts";
import type { ActionCall } from "../protocol/mod.ts";
import type { Recording } from "./human_schema.ts";
import type { HumanTask } from "./human_task.ts";

/** A recorded target description, parsed. */
export interface TargetDescription {
  tag: string;
  id?: string;
  name?: string;
  text?: string;
}

const TARGET = /^([a-z][a-z0-9-]*)(?:#(\S+?))?(?:\[name=([^\]]*)\])?(?: "([\s\S]*)")?$/;

/** Parses `button#add-to-cart[name=go] "Add to cart"`; undefined for an empty or unreadable description. */
export function parseTarget(description: unknown): TargetDescription | undefined {
  if (typeof description !== "string") return undefined;
  const m = TARGET.exec(description.trim());
  if (!m) return undefined;
  const t: TargetDescription = { tag: m[1] };
  if (m[2]) t.id = m[2];
  if (m[3]) t.name = m[3];
  if (m[4]) t.text = m[4];
  return t;
}

const cssString = (s: string) => `"${s.replace(/["\\]/g, "\\$&").replace(/\n/g, "\\a ")}"`;
const idSelector = (id: string) => /^[A-Za-z_][\w-]*$/.test(id) ? `#${id}` : `[id=${cssString(id)}]`;

/** Text cut by the recorder (80 characters) cannot be matched whole. */
export const truncated = (text: string) => text.length >= 80;

/**
 * A CSS selector for the described element: its id; else, for a named select or textarea, its name; else its tag
 * (and name) with the value, aria-label, placeholder or title the description's text came from, which tells a radio
 * group's options apart. `typed` is the value a text field held when it was described: text equal to it is the
 * field's content, not an attribute.
 */
export function selectorFor(t: TargetDescription, typed?: string): string | undefined {
  if (t.id) return idSelector(t.id);
  const base = t.name ? `${t.tag}[name=${cssString(t.name)}]` : t.tag;
  if (t.name && (t.tag !== "input" || !t.text || t.text === typed || truncated(t.text))) return base;
  if (!t.text || truncated(t.text) || t.text === typed) return undefined;
  return ["value", "aria-label", "placeholder", "title"].map((a) => `${base}[${a}=${cssString(t.text!)}]`).join(", ");
}

/**
 * Blocks a click on usually does nothing by itself (the recorder reports the nearest such block for a click on
 * text); one may be a custom widget's option (`li role=option`), so such a click is an optional step.
 */
const INERT = new Set(["li", "tr", "td", "th", "h1", "h2", "h3", "div", "span", "p", "section", "article", "ul"]);

type Locator = { selector: string } | { text: string };

/**
 * Whether recorded text reads like an attribute value rather than visible text: an ISO date (a date picker's
 * day buttons are labelled `2026-03-18` and show `18`). Codes such as `SO-10244` are usually visible link text.
 */
const attributeLike = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text);

/**
 * The locators that may designate the described element, best first: a selector when it has an id or name; else
 * its text (the recorder's text is its aria-label, visible text, placeholder or title, in that order) both as a
 * `text` locator and as an attribute selector, the attribute first when the text reads like one.
 */
function locatorsFor(t: TargetDescription): Locator[] {
  if (t.id || t.name) return [{ selector: selectorFor(t)! }];
  if (!t.text || truncated(t.text)) return [];
  const byAttribute = { selector: selectorFor(t)! };
  const byText = { text: t.text };
  if (["input", "textarea", "select"].includes(t.tag)) return [byAttribute];
  return attributeLike(t.text) ? [byAttribute, byText] : [byText, byAttribute];
}

type Entry = Record<string, unknown>;

/**
 * Whether two recorded targets are the same element: the same id (or tag and name) when they have one, since a
 * field's description carries its current value; else the same description.
 */
function sameElement(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const x = parseTarget(a), y = parseTarget(b);
  if (!x || !y || x.tag !== y.tag) return false;
  if (x.id || y.id) return x.id === y.id;
  return x.name !== undefined && x.name === y.name && x.text === y.text;
}

/** One replayed action and, when its element's locator is uncertain, the same action with the other locators. */
export interface ReplayStep {
  action: ActionCall;
  alternatives: ActionCall[];
  /** The recorded element (a drag's source), for resolving it against the page's elements at replay time. */
  element?: TargetDescription;
  /** A drag's recorded drop target. */
  dropTarget?: TargetDescription;
  /**
   * A click on a block that may do nothing (a list item, a cell: reading, or a custom option): run only when the
   * page has an indexed element of that tag and text (resolveStep finds it), and its failure is not the replay's.
   */
  optional?: boolean;
}

const EDIT_KEYS = new Set(["Backspace", "Delete", "Control+a", "Meta+a", "ArrowLeft", "ArrowRight", "Home", "End"]);
const str = (v: unknown) => typeof v === "string" ? v : v === undefined || v === null ? "" : String(v);

/** The path (with query and hash) of a recorded URL, which `navigate` resolves against the run's base. */
function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}${u.hash}`;
  } catch {
    return url;
  }
}

/** The index of the next action entry after `i` on the same page (not scrolls), or -1. */
function nextAction(entries: readonly Entry[], i: number): number {
  for (let j = i + 1; j < entries.length; j++) {
    if (entries[j].type === "observation") return -1;
    if (entries[j].type === "action" && entries[j].action !== "scroll") return j;
  }
  return -1;
}

/** The previous action entry before `i` on the same page (not scrolls), or undefined. */
function previousAction(entries: readonly Entry[], i: number): Entry | undefined {
  for (let j = i - 1; j >= 0; j--) {
    if (entries[j].type === "observation") return undefined;
    if (entries[j].type === "action" && entries[j].action !== "scroll") return entries[j];
  }
  return undefined;
}

/** A step per locator: the first is the action, the rest its alternatives. */
function step(name: string, t: TargetDescription, params: Record<string, unknown> = {}): ReplayStep[] {
  const [first, ...rest] = locatorsFor(t).map((l) => ({ [name]: { ...l, ...params } }));
  return first ? [{ action: first, alternatives: rest, element: t }] : [];
}

/** A text field's, select's or file input's step: these locate by selector only. */
function fieldStep(
  name: string,
  t: TargetDescription | undefined,
  params: Record<string, unknown>,
  typed?: string,
): ReplayStep[] {
  const selector = t && selectorFor(t, typed);
  return selector ? [{ action: { [name]: { selector, ...params } }, alternatives: [], element: t }] : [];
}

function clickSteps(entries: readonly Entry[], i: number, t: TargetDescription | undefined): ReplayStep[] {
  if (!t) return [];
  if (INERT.has(t.tag) && !t.id) {
    return t.text && !truncated(t.text)
      ? [{ action: { click: { text: t.text } }, alternatives: [], element: t, optional: true }]
      : [];
  }
  const prev = previousAction(entries, i);
  // The click a label sends to its control: replaying both would toggle twice.
  if (t.tag === "input" && prev?.action === "click" && parseTarget(prev.target)?.tag === "label") return [];
  return step("click", t);
}

const CAUSED_BY = new Set(["click", "key"]);
/** A change this close to a click or key (page clock, ms) came from its handler. */
const SAME_HANDLER_MS = 50;

function changeSteps(entries: readonly Entry[], i: number, t: TargetDescription | undefined): ReplayStep[] {
  const e = entries[i];
  const value = str(e.value);
  // A change next to a click or key on the same element is its effect (a checkbox's click comes first, a slider's
  // mouse press moves it before the click), as is a change a widget makes as it handles a click or key (a date
  // picker's day button filling its field): replaying the cause replays it.
  const prev = previousAction(entries, i);
  const nextAt = nextAction(entries, i);
  for (const other of [prev, nextAt >= 0 ? entries[nextAt] : undefined]) {
    if (other && sameElement(other.target, e.target) && CAUSED_BY.has(str(other.action))) return [];
  }
  if (prev && CAUSED_BY.has(str(prev.action)) && Math.abs(Number(e.t) - Number(prev.t)) <= SAME_HANDLER_MS) return [];
  if (value === "" || value === "on") return t ? step("click", t) : [];
  return fieldStep("input", t, { text: value }, value);
}

function keySteps(entries: readonly Entry[], i: number): ReplayStep[] {
  const e = entries[i];
  const keys = str(e.value);
  // Editing keys before the field's typed value is recorded: the input action sets the whole value.
  const next = nextAction(entries, i);
  if (
    EDIT_KEYS.has(keys) && next >= 0 && entries[next].action === "input" && sameElement(entries[next].target, e.target)
  ) {
    return [];
  }
  return keys ? [{ action: { send_keys: { keys } }, alternatives: [] }] : [];
}

function dragSteps(t: TargetDescription | undefined, drop: TargetDescription | undefined): ReplayStep[] {
  const sources = t ? locatorsFor(t) : [];
  const targets = drop ? locatorsFor(drop) : [];
  const all = sources.flatMap((source) => targets.map((target) => ({ drag: { source, target } })));
  return all.length ? [{ action: all[0], alternatives: all.slice(1), element: t, dropTarget: drop }] : [];
}

/** One recorder action as steps (none when it is a consequence of another, or not replayable). */
function convert(entries: readonly Entry[], i: number): ReplayStep[] {
  const e = entries[i];
  const t = parseTarget(e.target);
  const value = str(e.value);
  switch (e.action) {
    case "click":
      return clickSteps(entries, i, t);
    case "input":
      return fieldStep("input", t, { text: value }, value);
    case "change":
      return changeSteps(entries, i, t);
    case "select":
      return fieldStep("select_dropdown", t, { text: value });
    case "key":
      return keySteps(entries, i);
    case "drag":
      return dragSteps(t, parseTarget(e.value));
    case "upload": {
      const file = value.split(",")[0].trim();
      return file ? fieldStep("upload_file", t, { path: file }) : [];
    }
    default:
      return []; // scroll and unknown actions: locators scroll elements into view themselves
  }
}

/** Recorder actions that can load a page (a click, a key, a selection, a drag, a change, an upload). */
const CAUSES = new Set(["click", "key", "select", "change", "drag", "upload"]);

/**
 * The steps of a recording: every recorder action turned into the action language; a page load that no action
 * since the previous one can explain (a typed URL, history back) becomes a `navigate` to its path; the annotator's
 * answer ends it as `done` ("" when the recording has none).
 */
export function recordingSteps(recording: Recording): ReplayStep[] {
  const entries = recording.entries.filter((e) => e.type === "action" || e.type === "observation");
  const out: ReplayStep[] = [];
  let loads = 0;
  let caused = false;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e.type === "observation") {
      if (e.kind !== "page_load") continue;
      if (loads++ > 0 && !caused && typeof e.url === "string") {
        out.push({ action: { navigate: { url: pathOf(e.url) } }, alternatives: [] });
      }
      caused = false;
      continue;
    }
    if (CAUSES.has(str(e.action))) caused = true;
    out.push(...convert(entries, i));
  }
  out.push({ action: { done: { text: recording.answer ?? "" } }, alternatives: [] });
  return out;
}

/** The task's recording, or an error naming its folder. */
function recordingOf(task: HumanTask): Recording {
  if (!task.recording) throw new HarnessError(`human task "${task.task_id}" has no recording.json in ${task.dir}`);
  return task.recording;
}

/**
 * The actions the replay arm executes for a human task: its recording's steps (not the optional ones), each with
 * its best locator.
 * @throws HarnessError when the task has no recording.json.
 */
export function recordingActions(task: HumanTask): ActionCall[] {
  return recordingSteps(recordingOf(task)).filter((s) => !s.optional).map((s) => s.action);
}

/**
 * The recording's steps with their alternative locators (a replay that tries the next one when an action cannot
 * find its element).
 * @throws HarnessError when the task has no recording.json.
 */
export function recordingReplaySteps(task: HumanTask): ReplayStep[] {
  return recordingSteps(recordingOf(task));
}
