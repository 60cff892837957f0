/**
 * The family table routing reads: the macro → family → adapter tables come from lib/protocol (docs/tasks.md, "Macros
 * and families"); the hints that describe each family in a router note live here.
 */
import { ADAPTER_OF_FAMILY as TASK_ADAPTER_OF_FAMILY, familyOf } from "../protocol/mod.ts";

export { familyOf };

/** The served adapter name of each family (the oracle arm's choice), indexable by any family name. */
export const ADAPTER_OF_FAMILY: Readonly<Record<string, string>> = TASK_ADAPTER_OF_FAMILY;

/** The family whose steps end in an answer: its `done` is the step's action. */
export const REASONING = "Reasoning base";

/** One line per family: what its steps are about, for the router's note to a specialist. */
export const FAMILY_HINTS: Readonly<Record<string, string>> = Object.freeze({
  "Drag & gesture": "drag an item onto a target, reorder a list or move a slider",
  "Out-of-page I/O": "copy to the clipboard, download or upload a file, confirm a dialog or open a new tab",
  "Discrete selection": "pick the right option, checkbox, radio button or date",
  "Text entry": "type the requested text into a search box, editor or inline field",
  "Form transaction": "fill in and submit a form, or log in",
  "Navigation": "reach the right page through menus, tabs, pagination or a detail link",
  [REASONING]: "read the pages and give the answer with done",
});
