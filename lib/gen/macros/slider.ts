/**
 * set_slider: a range input moved to a value. Its method evidence is the slider's own last `change` at the value (and,
 * on a list form, the apply button that opened the list with it); a typed `?max_price=` URL is its attack. The
 * reference moves it with the keys from the nearer end; the value reached from the other end is its alternative
 * (the slider's last value counts, not the ones it passed), or, when the other end is too far for an episode's steps,
 * the value overshot by one step from the nearer end and come back to.
 */
import type { ActionJson } from "../template.ts";
import { type ControlPlace, controlSegment } from "./control.ts";
import type { Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/** A slider's scale: its least and greatest value and its step. */
export interface Scale {
  /** The least value. */
  min: number;
  /** The greatest value. */
  max: number;
  /** The step. */
  step: number;
}

/** Key presses moving the focused slider to `value`, from its low end (`Home`) or its high end (`End`). */
function fromEnd(slider: string, value: number, s: Scale, low: boolean): ActionJson[] {
  const n = Math.round((low ? value - s.min : s.max - value) / s.step);
  return [
    { click: { selector: slider } },
    { send_keys: { keys: low ? "Home" : "End" } },
    ...Array.from({ length: n }, () => ({ send_keys: { keys: low ? "ArrowRight" : "ArrowLeft" } })),
  ];
}

/** The most arrow presses the alternative from the other end may take (a reference has 40 steps in all). */
const FAR_KEYS = 20;

/** From the nearer end one step past `value`, then one back: the slider's last value counts. */
function overshot(slider: string, value: number, s: Scale, low: boolean): ActionJson[] {
  const past = fromEnd(slider, value + (low ? s.step : -s.step), s, low);
  return [...past, { send_keys: { keys: low ? "ArrowLeft" : "ArrowRight" } }];
}

/** The set_slider segment: the slider `slider` (an id) on the scale `scale` moved to `value`. */
export function setSlider(slider: string, value: number, scale: Scale, place: ControlPlace = {}): Segment {
  if (value < scale.min || value > scale.max || (value - scale.min) % scale.step !== 0) {
    throw new Error(`slider ${slider}: ${value} is not on its scale ${scale.min}..${scale.max} by ${scale.step}`);
  }
  const low = value - scale.min <= scale.max - value;
  return controlSegment({
    ...place,
    macro: "set_slider",
    target: targetOf(slider),
    action: "change",
    value: { exact: String(value) },
    steps: fromEnd(slider, value, scale, low),
    keyboard: value === scale.min || value === scale.max
      ? undefined
      : Math.round((low ? scale.max - value : value - scale.min) / scale.step) <= FAR_KEYS
      ? fromEnd(slider, value, scale, !low)
      : overshot(slider, value, scale, low),
  });
}
