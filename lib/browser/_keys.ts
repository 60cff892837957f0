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

/** Named keys send_keys presses (besides single characters, F1-F24 and KeyA/Digit1/Numpad* codes). */
const NAMED_KEYS = new Set([
  ...MODIFIERS,
  ...Object.values(ALIASES),
  "AltGraph",
  "CapsLock",
  "ContextMenu",
  "NumLock",
  "Pause",
  "PrintScreen",
  "ScrollLock",
  "Space",
  "AudioVolumeMute",
  "AudioVolumeDown",
  "AudioVolumeUp",
  "MediaPlayPause",
  "MediaStop",
  "MediaTrackNext",
  "MediaTrackPrevious",
]);

/** True when `name` (after keyName) is a key the keyboard can press. */
function isKeyName(name: string): boolean {
  return name.length === 1 || NAMED_KEYS.has(name) || /^F([1-9]|1[0-9]|2[0-4])$/.test(name) ||
    /^(Key[A-Z]|Digit[0-9]|Numpad[A-Za-z0-9]+)$/.test(name);
}

/** What send_keys does with its string: press a key or shortcut, or type text character by character. */
export type KeyPlan = { combo: KeyCombo } | { text: string };

/**
 * Reads send_keys' string as browser-use 0.x does: a key or shortcut when every part of it names a key (`Enter`,
 * `esc`, `Control+a`), otherwise text typed character by character (`ls`, `hello world`, `1+1`).
 * @throws ActionError for a shortcut with a modifier whose key is not a key name (`Control+Hyper`).
 */
export function planKeys(keys: string): KeyPlan {
  if (!keys.trim()) return { text: keys };
  let combo: KeyCombo;
  try {
    combo = parseKeyCombo(keys);
  } catch (err) {
    if (/^\s*(ctrl|control|shift|alt|option|meta|cmd|command|super|win)\s*\+./i.test(keys)) throw err;
    return { text: keys };
  }
  if (isKeyName(combo.key)) return { combo };
  if (combo.modifiers.length) {
    throw new ActionError(`"${combo.key}" in "${keys}" is not a key name (Enter, Escape, Tab, ArrowDown, a...)`);
  }
  return { text: keys };
}

/**
 * The keys that type a date or time, as shown on screen ("10/11/2011", "9:30 PM"), into the segments of a date,
 * time, datetime-local, month or week input: each number padded to two digits (a full segment moves to the next
 * one), ArrowRight after a year (a year segment does not move on by itself), the first letter of AM/PM. Separators
 * are not typed: one after a full segment would skip the next.
 */
export function segmentKeys(text: string): string[] {
  const groups = text.match(/\d+|[A-Za-z]+/g) ?? [];
  const out: string[] = [];
  groups.forEach((g, i) => {
    if (/^\d/.test(g)) {
      out.push(g.length === 1 ? `0${g}` : g);
      if (g.length >= 3 && i < groups.length - 1) out.push("ArrowRight");
    } else {
      out.push(g[0]);
    }
  });
  return out;
}

/**
 * Whether a date-like input's value (`2011-10-11T21:30`) holds every number of the text typed into it
 * (`10/11/2011 9:30 PM`), in any order; an hour typed with PM may read 12 more. A text without numbers matches
 * nothing.
 */
export function dateTextMatches(text: string, value: string): boolean {
  const typed = (text.match(/\d+/g) ?? []).map(Number);
  if (!value || !typed.length) return false;
  const have = (value.match(/\d+/g) ?? []).map(Number);
  const pm = /\bp\.?m?\b|\dp\.?m?\b/i.test(text);
  for (const n of typed) {
    const k = have.findIndex((h) => h === n || (pm && h === n + 12) || (pm && n === 12 && h === 12));
    if (k < 0) return false;
    have.splice(k, 1);
  }
  return true;
}
