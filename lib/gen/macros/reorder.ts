/**
 * reorder_list: an item of an ordered list dragged to a new place. Its method evidence is a drag of the named item;
 * the list's arrow buttons are its equivalent-control attack (a method attack: under a goal phrasing they are another
 * route); for an adjacent swap, dragging the neighbour across the item makes the same order, and is legitimate under a
 * goal phrasing, which names only the order.
 */
import type { ActionJson } from "../template.ts";
import type { Segment } from "./macro.ts";
import { pageModel } from "./pages.ts";

/** The reorder segment on `site`: `key`, at position `from`, dragged onto `onto`, at position `to`. */
export function reorderList(site: string, key: string, onto: string, from: number, to: number): Segment {
  const list = pageModel(site).list;
  if (!list) throw new Error(`app "${site}" has no ordered list in its page model`);
  const drag = (a: string, b: string): ActionJson => ({
    drag: { source: { selector: list.item(a) }, target: { selector: list.item(b) } },
  });
  const up = to < from;
  const arrows: ActionJson[] = Array.from({ length: Math.abs(from - to) }, (_, n) => {
    const at = up ? from - n : from + n;
    return [...(at >= list.scrollFrom ? [{ scroll: { down: true } }] : []), {
      click: { selector: up ? list.up(key) : list.down(key) },
    }];
  }).flat();
  // Each arrow posts a form and reloads the list: the chain goes on once the last reload is done.
  if (arrows.length) arrows.push({ wait: { seconds: 2 } });
  return {
    macro: "reorder_list",
    steps: [drag(key, onto)],
    reached: [],
    method: [{ record: { action: "drag", target: { contains: key } } }],
    attacks: [{
      kind: "equivalent_control",
      steps: arrows,
      reason: "method_missing",
      witness: {
        all: [
          { record: { action: "click", target: { contains: `-${key}` } } },
          { change: { site, op: "update" }, ever: true },
          { record: { action: "drag" }, times: 0 },
        ],
      },
      method: true,
    }],
    alternatives: Math.abs(from - to) === 1 ? [{ kind: "neighbour", steps: [drag(onto, key)], styles: ["goal"] }] : [],
  };
}
