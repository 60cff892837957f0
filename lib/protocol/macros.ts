/** The macro vocabulary, its families and the adapter each family is routed to (docs/tasks.md). */

/** The action families, in the order of docs/tasks.md. */
export const FAMILIES = [
  "Drag & gesture",
  "Out-of-page I/O",
  "Discrete selection",
  "Text entry",
  "Form transaction",
  "Navigation",
  "Reasoning base",
] as const;

/** An action family (FAMILIES). */
export type Family = typeof FAMILIES[number];

/** The family of a macro that is not in the vocabulary (a human task's own label). */
export const OTHER_FAMILY = "Other";

/** Every macro of the vocabulary → its family. */
export const MACRO_FAMILY = {
  drag_and_drop: "Drag & gesture",
  reorder_list: "Drag & gesture",
  set_slider: "Drag & gesture",
  copy_to_clipboard: "Out-of-page I/O",
  download_file: "Out-of-page I/O",
  upload_file: "Out-of-page I/O",
  confirm_dialog: "Out-of-page I/O",
  open_new_tab: "Out-of-page I/O",
  select_option: "Discrete selection",
  choose_from_combobox: "Discrete selection",
  toggle_checkbox: "Discrete selection",
  choose_radio: "Discrete selection",
  pick_date: "Discrete selection",
  search: "Text entry",
  compose_text: "Text entry",
  edit_inline: "Text entry",
  submit_form: "Form transaction",
  authenticate_by_form: "Form transaction",
  navigate_menu: "Navigation",
  paginate: "Navigation",
  open_detail: "Navigation",
  switch_tab: "Navigation",
  answer_question: "Reasoning base",
} as const satisfies Record<string, Family>;

/** A macro of the vocabulary. */
export type Macro = keyof typeof MACRO_FAMILY;

/** The macros of the vocabulary, in table order. */
export const MACROS = Object.keys(MACRO_FAMILY) as Macro[];

/** The served adapters. */
export type Adapter = "drag" | "io" | "select" | "rest" | "reasoning";

/** The adapter the oracle arm routes a family's steps to (the seed's ADAPTER_OF_FAMILY). */
export const ADAPTER_OF_FAMILY: Readonly<Record<Family, Adapter>> = {
  "Drag & gesture": "drag",
  "Out-of-page I/O": "io",
  "Discrete selection": "select",
  "Text entry": "rest",
  "Form transaction": "rest",
  "Navigation": "rest",
  "Reasoning base": "reasoning",
};

/** True for a macro of the vocabulary. */
export function isMacro(name: string): name is Macro {
  return Object.hasOwn(MACRO_FAMILY, name);
}

/**
 * The family of a macro; a suffix after `#` (a human task's `submit_form#2`) is ignored, and a macro outside the
 * vocabulary is "Other".
 */
export function familyOf(macro: string): Family | typeof OTHER_FAMILY {
  const base = macro.split("#")[0];
  return isMacro(base) ? MACRO_FAMILY[base] : OTHER_FAMILY;
}
