/**
 * The action language (docs/tasks.md, "Actions"): one `{name: params}` object per action, shared by reference
 * solutions, setup actions and the model's replies. Parsed strictly: an unknown param, a wrong type or a missing
 * element reference is an error naming the field. browser-use 0.x's older names (`click_element_by_index`,
 * `input_text`, `go_to_url`, `scroll_down`, ...) parse as the action they name (OLD_NAMES).
 */
import { z } from "zod";
import { HarnessError } from "../errors/mod.ts";
import { describeIssues, errorMap, keyedUnion, type ZodSchema } from "./schema_text.ts";

/** An element designated by CSS selector or by its normalised text (solutions and setup only). */
export type ElementLocator = { selector: string } | { text: string };

/** How an action names its element: the model's `index`, or a locator (`selector`, `text`). Exactly one is set. */
export type ElementRef = { index?: number; selector?: string; text?: string };

/** The params of each action, defaults applied. */
export type ActionParams = {
  navigate: { url: string; new_tab: boolean };
  click: ElementRef & { coordinate_x?: number; coordinate_y?: number };
  hover: ElementRef & { coordinate_x?: number; coordinate_y?: number };
  input: { index?: number; selector?: string; text: string; clear: boolean };
  /** `keys`: a key or shortcut, else text typed; `text`: always typed. Exactly one is set. */
  send_keys: { keys?: string; text?: string };
  select_dropdown: { index?: number; selector?: string; text: string };
  dropdown_options: ElementRef;
  scroll: ElementRef & {
    coordinate_x?: number;
    coordinate_y?: number;
    down: boolean;
    pages: number;
    /** Instead of pages (browser-use's scroll amount). */
    pixels?: number;
  };
  go_back: Record<string, never>;
  switch: { tab_id: string };
  close: { tab_id: string };
  upload_file: ElementRef & { path: string };
  wait: { seconds: number };
  drag: {
    source_index?: number;
    target_index?: number;
    source?: ElementLocator;
    target?: ElementLocator;
    source_x?: number;
    source_y?: number;
    target_x?: number;
    target_y?: number;
    /** Points to drag through (mouse down at the first, up at the last), instead of a source and a target. */
    path?: { x: number; y: number }[];
  };
  clipboard_read: Record<string, never>;
  clipboard_write: { text: string };
  done: { text: string; success: boolean };
  macro_done: Record<string, never>;
};

/** The name of an action of the action language (`click`, `input`, ...). */
export type ActionName = keyof ActionParams;

/** One parsed action, discriminated by `name`. */
export type Action = { [N in ActionName]: { name: N; params: ActionParams[N] } }[ActionName];

const index = z.number().int().min(0);
const nonEmpty = z.string().min(1);
const coord = z.number().min(0);
const ref = { index: index.optional(), selector: nonEmpty.optional(), text: nonEmpty.optional() };
const refNoText = { index: index.optional(), selector: nonEmpty.optional() };
const noParams = z.object({}).transform(() => ({})); // browser-use ignores params of param-less actions

type Ctx = z.core.$RefinementCtx;

/** Exactly one of the given alternatives (each a list of fields that go together) is present. */
function oneOf(obj: Record<string, unknown>, ctx: Ctx, forms: string[][], optional = false): void {
  const given = forms.filter((f) => f.some((k) => obj[k] !== undefined));
  const names = forms.map((f) => f.join("/")).join(", ");
  if (given.length === 0 && !optional) {
    ctx.addIssue({ code: "custom", path: [forms[0][0]], message: `is missing (give one of ${names})` });
  } else if (given.length > 1) {
    ctx.addIssue({
      code: "custom",
      path: [given[1][0]],
      message: `conflicts with "${given[0][0]}" (give one of ${names})`,
    });
  } else if (given.length === 1) {
    const missing = given[0].find((k) => obj[k] === undefined);
    if (missing) ctx.addIssue({ code: "custom", path: [missing], message: `is missing (goes with "${given[0][0]}")` });
  }
}

const locator = z.strictObject({ selector: nonEmpty.optional(), text: nonEmpty.optional() })
  .superRefine((o, ctx) => oneOf(o, ctx, [["selector"], ["text"]])) as z.ZodType<ElementLocator>;

const element = (optional = false) => (o: Record<string, unknown>, ctx: Ctx) =>
  oneOf(o, ctx, [["index"], ["selector"], ["text"]], optional);
const elementNoText = (o: Record<string, unknown>, ctx: Ctx) => oneOf(o, ctx, [["index"], ["selector"]]);
const elementOrPoint = (optional = false) => (o: Record<string, unknown>, ctx: Ctx) =>
  oneOf(o, ctx, [["index"], ["selector"], ["text"], ["coordinate_x", "coordinate_y"]], optional);
const at = { coordinate_x: coord.optional(), coordinate_y: coord.optional() };

const PARAMS: { [N in ActionName]: z.ZodType<ActionParams[N]> } = {
  navigate: z.strictObject({ url: nonEmpty, new_tab: z.boolean().default(false) }),
  click: z.strictObject({ ...ref, ...at }).superRefine(elementOrPoint()),
  hover: z.strictObject({ ...ref, ...at }).superRefine(elementOrPoint()),
  input: z.strictObject({ ...refNoText, text: z.string(), clear: z.boolean().default(true) }).superRefine(
    elementNoText,
  ),
  send_keys: z.strictObject({ keys: nonEmpty.optional(), text: nonEmpty.optional() })
    .superRefine((o, ctx) => oneOf(o, ctx, [["keys"], ["text"]])),
  select_dropdown: z.strictObject({ ...refNoText, text: z.string() }).superRefine(elementNoText),
  dropdown_options: z.strictObject(ref).superRefine(element()),
  scroll: z.strictObject({
    ...ref,
    ...at,
    down: z.boolean().default(true),
    pages: z.number().positive().default(1),
    pixels: z.number().positive().optional(),
  }).superRefine(elementOrPoint(true)),
  go_back: noParams,
  switch: z.strictObject({ tab_id: nonEmpty }),
  close: z.strictObject({ tab_id: nonEmpty }),
  upload_file: z.strictObject({ ...ref, path: nonEmpty }).superRefine((o, ctx) => {
    element()(o, ctx);
    if (o.path.startsWith("/") || o.path.split(/[\\/]/).includes("..")) {
      ctx.addIssue({
        code: "custom",
        path: ["path"],
        message: `must be a file name in the upload folder, got "${o.path}"`,
      });
    }
  }),
  wait: z.strictObject({ seconds: z.number().min(0).default(3) }),
  drag: z.strictObject({
    source_index: index.optional(),
    target_index: index.optional(),
    source: locator.optional(),
    target: locator.optional(),
    source_x: coord.optional(),
    source_y: coord.optional(),
    target_x: coord.optional(),
    target_y: coord.optional(),
    path: z.array(z.strictObject({ x: coord, y: coord })).min(2).optional(),
  }).superRefine((o, ctx) => {
    if (o.path !== undefined) {
      const other = Object.keys(o).find((k) => k !== "path" && o[k as keyof typeof o] !== undefined);
      if (other) ctx.addIssue({ code: "custom", path: [other], message: 'conflicts with "path" (give one of them)' });
      return;
    }
    oneOf(o, ctx, [["source_index"], ["source"], ["source_x", "source_y"]]);
    oneOf(o, ctx, [["target_index"], ["target"], ["target_x", "target_y"]]);
  }),
  clipboard_read: noParams,
  clipboard_write: z.strictObject({ text: z.string() }),
  done: z.strictObject({
    text: z.string(),
    success: z.boolean().default(true),
    files_to_display: z.array(z.string()).optional(), // browser-use's done carries it; dropped
  }).transform(({ text, success }) => ({ text, success })),
  macro_done: noParams,
};

/** The action names, in the order of docs/tasks.md. */
export const ACTION_NAMES = Object.keys(PARAMS) as ActionName[];

/** Null params mean none; a null param means the param is absent (model replies carry both). */
function dropNulls(params: unknown): unknown {
  if (params === null || params === undefined) return {};
  if (typeof params !== "object" || Array.isArray(params)) return params;
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== null));
}

type Params = Record<string, unknown>;

/** Keeps the params whose value is defined. */
const defined = (p: Params): Params => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));

/** A drag_drop end: its element (a CSS selector) or its point. */
const oldEnd = (selector: unknown, x: unknown, y: unknown): Params => selector !== undefined ? { selector } : { x, y };

/**
 * browser-use 0.x's action names and params (controller/views.py) as the action each one is: a reply in the older
 * vocabulary runs as the same action (its recorded reply keeps what the model said). A param without a
 * counterpart stays, so that parsing names it; `xpath` and browser-use's drag tuning params are dropped.
 */
type OldMapping = (p: Params) => [ActionName, Params];
const oldClick: OldMapping = ({ xpath: _, right_click, ...p }) => [
  "click",
  defined({ ...p, right_click: right_click || undefined }),
];
const oldScroll = (down: boolean): OldMapping => ({ amount, ...p }) => [
  "scroll",
  defined({ ...p, down, pixels: amount }),
];
const OLD_NAMES: Record<string, OldMapping> = {
  click_element_by_index: oldClick,
  click_element: oldClick,
  input_text: ({ xpath: _, ...p }) => ["input", p],
  go_to_url: (p) => ["navigate", p],
  open_tab: (p) => ["navigate", { ...p, new_tab: true }],
  scroll_down: oldScroll(true),
  scroll_up: oldScroll(false),
  get_dropdown_options: (p) => ["dropdown_options", p],
  select_dropdown_option: (p) => ["select_dropdown", p],
  drag_drop: (
    { element_source, element_target, coord_source_x, coord_source_y, coord_target_x, coord_target_y, ...rest },
  ) => {
    const { steps: _s, delay_ms: _d, ...p } = rest;
    const from = oldEnd(element_source, coord_source_x, coord_source_y);
    const to = oldEnd(element_target, coord_target_x, coord_target_y);
    return [
      "drag",
      defined({
        ...p,
        source: "selector" in from ? from : undefined,
        source_x: from.x,
        source_y: from.y,
        target: "selector" in to ? to : undefined,
        target_x: to.x,
        target_y: to.y,
      }),
    ];
  },
};

/** browser-use 0.x's older action names this parser accepts, each for the action it runs as. */
export const OLD_ACTION_NAMES: Readonly<Record<string, ActionName>> = Object.fromEntries(
  Object.entries(OLD_NAMES).map(([old, map]) => [old, map({})[0]]),
);

/** `{old_name: params}` as the action it runs as; anything else as it is. */
function fromOldName(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const keys = Object.keys(raw);
  const map = keys.length === 1 ? OLD_NAMES[keys[0]] : undefined;
  if (!map) return raw;
  const params = dropNulls((raw as Params)[keys[0]]);
  if (typeof params !== "object" || params === null || Array.isArray(params)) return { [map({})[0]]: params };
  const [name, mapped] = map(params as Params);
  return { [name]: mapped };
}

const variants = Object.fromEntries(
  ACTION_NAMES.map((name) => [
    name,
    z.strictObject({ [name]: z.preprocess(dropNulls, PARAMS[name]) })
      .transform((o) => ({ name, params: o[name] }) as Action),
  ]),
);

/** The zod schema of one action (`{"click": {"index": 3}}` → `{name: "click", params: {index: 3}}`). */
export const actionSchema: ZodSchema<Action> = z.preprocess(fromOldName, keyedUnion<Action>("an action", variants));

/**
 * An action as a parsed task holds it and a run saves it (`{name: "click", params: {index: 3}}`), read back through
 * actionSchema from its `{name: params}` form, so that a saved task is checked as its line was.
 */
export const savedActionSchema: ZodSchema<Action> = z.preprocess(
  (raw) => isSavedAction(raw) ? formatAction(raw) : raw,
  actionSchema,
);

/** `{name, params}` with a string name: what actionSchema makes of a line's action (the name checked after). */
function isSavedAction(raw: unknown): raw is Action {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return false;
  const keys = Object.keys(raw);
  return keys.length === 2 && keys.includes("name") && keys.includes("params") &&
    typeof (raw as { name: unknown }).name === "string";
}

/**
 * Parses one action `{name: params}`.
 * @throws HarnessError naming the field: `click.index: must be >= 0, got -1`.
 */
export function parseAction(raw: unknown): Action {
  const r = actionSchema.safeParse(raw, { error: errorMap });
  if (!r.success) throw new HarnessError(`invalid action: ${describeIssues(r.error)}`, { cause: r.error });
  return r.data;
}

/** The action back in the `{name: params}` form of the action language. */
export function formatAction(action: Action): Record<string, unknown> {
  return { [action.name]: action.params };
}
