/**
 * The action language (docs/tasks.md, "Actions"): one `{name: params}` object per action, shared by reference
 * solutions, setup actions and the model's replies. Parsed strictly: an unknown param, a wrong type or a missing
 * element reference is an error naming the field.
 */
import { z } from "zod";
import { HarnessError } from "../errors/mod.ts";
import { describeIssues, errorMap, keyedUnion } from "../grading/mod.ts";

/** An element designated by CSS selector or by its normalised text (solutions and setup only). */
export type ElementLocator = { selector: string } | { text: string };

/** How an action names its element: the model's `index`, or a locator (`selector`, `text`). Exactly one is set. */
export type ElementRef = { index?: number; selector?: string; text?: string };

/** The params of each action, defaults applied. */
export type ActionParams = {
  navigate: { url: string; new_tab: boolean };
  click: ElementRef & { coordinate_x?: number; coordinate_y?: number };
  input: { index?: number; selector?: string; text: string; clear: boolean };
  send_keys: { keys: string };
  select_dropdown: { index?: number; selector?: string; text: string };
  dropdown_options: ElementRef;
  scroll: ElementRef & { down: boolean; pages: number };
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
  };
  clipboard_read: Record<string, never>;
  clipboard_write: { text: string };
  done: { text: string; success: boolean };
  macro_done: Record<string, never>;
};

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

const PARAMS: { [N in ActionName]: z.ZodType<ActionParams[N]> } = {
  navigate: z.strictObject({ url: nonEmpty, new_tab: z.boolean().default(false) }),
  click: z.strictObject({ ...ref, coordinate_x: coord.optional(), coordinate_y: coord.optional() }).superRefine(
    (o, ctx) => oneOf(o, ctx, [["index"], ["selector"], ["text"], ["coordinate_x", "coordinate_y"]]),
  ),
  input: z.strictObject({ ...refNoText, text: z.string(), clear: z.boolean().default(true) }).superRefine(
    elementNoText,
  ),
  send_keys: z.strictObject({ keys: nonEmpty }),
  select_dropdown: z.strictObject({ ...refNoText, text: z.string() }).superRefine(elementNoText),
  dropdown_options: z.strictObject(ref).superRefine(element()),
  scroll: z.strictObject({ ...ref, down: z.boolean().default(true), pages: z.number().positive().default(1) })
    .superRefine(element(true)),
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
  }).superRefine((o, ctx) => {
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

const variants = Object.fromEntries(
  ACTION_NAMES.map((name) => [
    name,
    z.strictObject({ [name]: z.preprocess(dropNulls, PARAMS[name]) })
      .transform((o) => ({ name, params: o[name] }) as Action),
  ]),
);

/** The zod schema of one action (`{"click": {"index": 3}}` → `{name: "click", params: {index: 3}}`). */
export const actionSchema: z.ZodType<Action> = keyedUnion<Action>("an action", variants);

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
