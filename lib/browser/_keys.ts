/** send_keys' key strings (`Enter`, `Control+a`, `Control+Shift+ArrowDown`) as modifiers plus one key. */
import { ActionError } from "./errors.ts";

export const MODIFIERS = ["Control", "Shift", "Alt", "Meta"] as const;
export type Modifier = typeof MODIFIERS[number];

/** A parsed shortcut: the modifiers held (in order) and the key pressed. */
export interface KeyCombo {
  modifiers: Modifier[];
  key: string;
}

const ALIASES: Record<string, string> = {
  ctrl: "Control",
  control: "Control",
  cmd: "Meta",
  command: "Meta",
  meta: "Meta",
  super: "Meta",
  win: "Meta",
  option: "Alt",
  alt: "Alt",
  shift: "Shift",
  esc: "Escape",
  escape: "Escape",
  return: "Enter",
  enter: "Enter",
  del: "Delete",
  delete: "Delete",
  backspace: "Backspace",
  tab: "Tab",
  space: " ",
  spacebar: " ",
  up: "ArrowUp",
  down: "ArrowDown",
  left: "ArrowLeft",
  right: "ArrowRight",
  arrowup: "ArrowUp",
  arrowdown: "ArrowDown",
  arrowleft: "ArrowLeft",
  arrowright: "ArrowRight",
  pageup: "PageUp",
  pagedown: "PageDown",
  pgup: "PageUp",
  pgdn: "PageDown",
  home: "Home",
  end: "End",
  insert: "Insert",
};

/** Canonical name of one key token: aliases resolved, case of named keys fixed. */
function keyName(token: string): string {
  if (token.length === 1) return token;
  const alias = ALIASES[token.toLowerCase()];
  if (alias) return alias;
  if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(token)) return token.toUpperCase();
  return token;
}

/**
 * Parses one shortcut. A single printable key under Control/Alt/Meta is lower-cased (Control+A is Control+a).
 * @throws ActionError for an empty string, a modifier without a key, or several keys in one combo.
 */
export function parseKeyCombo(keys: string): KeyCombo {
  const raw = keys.trim();
  if (!raw) throw new ActionError(`send_keys got no key in "${keys}"`);
  // A trailing "+" is the plus key itself ("Control++").
  const tokens = raw === "+" ? ["+"] : raw.endsWith("++") ? [...raw.slice(0, -2).split("+"), "+"] : raw.split("+");
  if (tokens.some((t) => t.trim() === "")) throw new ActionError(`cannot read the key combination "${keys}"`);
  const names = tokens.map((t) => keyName(t.trim()));
  const key = names.pop()!;
  if ((MODIFIERS as readonly string[]).includes(key) && names.length === 0) return { modifiers: [], key };
  const modifiers: Modifier[] = [];
  for (const name of names) {
    if (!(MODIFIERS as readonly string[]).includes(name)) {
      throw new ActionError(`"${name}" in "${keys}" is not a modifier (Control, Shift, Alt, Meta); send one combo`);
    }
    if (!modifiers.includes(name as Modifier)) modifiers.push(name as Modifier);
  }
  const chord = modifiers.some((m) => m !== "Shift");
  return { modifiers, key: chord && key.length === 1 ? key.toLowerCase() : key };
}
