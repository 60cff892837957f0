/**
 * Resolving a replay step against the page it runs on: a recorded description without id or name (`button "Sign
 * in"`) pinned to the indexed element of that tag with that text, which neither a `text` locator (any tag) nor an
 * attribute selector can always do. Pure: it reads the element list of the state captured before the step.
 */
import { type ReplayStep, type TargetDescription, truncated } from "./recording.ts";

type Action = ReplayStep["action"];

/** The page's elements as a state's snapshot lists them (lib/dom's DomElement, the fields read here). */
export interface ReplayElement {
  /** The element's index, as actions name it. */
  index: number;
  /** Its tag name, lower case. */
  tag: string;
  /** Its visible text. */
  text: string;
  /** Its attributes. */
  attributes: Partial<Record<string, string>>;
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * The index of the element a description designates among the page's indexed elements: same tag and the same
 * text (the visible text, else an aria-label, placeholder, title or value attribute); undefined when none or when
 * the description has an id or name (its selector is exact).
 */
export function findElement(t: TargetDescription | undefined, elements: readonly ReplayElement[]): number | undefined {
  if (!t || t.id || t.name || !t.text || truncated(t.text)) return undefined;
  const want = norm(t.text);
  const same = elements.filter((e) => e.tag === t.tag);
  const byText = same.find((e) => norm(e.text) === want);
  if (byText) return byText.index;
  const attrs = ["aria-label", "placeholder", "title", "value"];
  return same.find((e) => attrs.some((a) => e.attributes[a] !== undefined && norm(e.attributes[a]!) === want))?.index;
}

/**
 * A step's action with its elements resolved against the page it runs on (the state captured just before it): a
 * description without id or name becomes the index of the element of that tag with that text, which a `text`
 * locator (any tag) or an attribute selector cannot always pin down. Unresolved, the step's own action.
 */
export function resolveStep(s: ReplayStep, elements: readonly ReplayElement[]): Action {
  const [name, params] = Object.entries(s.action)[0];
  if (name === "drag") {
    const source = findElement(s.element, elements);
    const target = findElement(s.dropTarget, elements);
    const p: Record<string, unknown> = { ...params };
    if (source !== undefined) (delete p.source, p.source_index = source);
    if (target !== undefined) (delete p.target, p.target_index = target);
    return { drag: p };
  }
  const index = findElement(s.element, elements);
  if (index === undefined || !("selector" in params || ("text" in params && name === "click"))) return s.action;
  const { selector: _selector, ...rest } = params;
  if (name === "click") delete rest.text;
  return { [name]: { ...rest, index } };
}

/**
 * The actions to try for a replay step, in order, on the elements observed before it: the step resolved to the
 * element of its recorded tag and text, then its own action and its alternatives. An optional step runs only
 * when it resolves (no candidates otherwise).
 */
export function stepCandidates(step: ReplayStep, elements: readonly ReplayElement[]): ReplayStep["action"][] {
  const first = resolveStep(step, elements);
  if (step.optional) return first === step.action ? [] : [first];
  return first === step.action ? [step.action, ...step.alternatives] : [first, step.action, ...step.alternatives];
}
