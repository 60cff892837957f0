/** A proposed task for the tests of the proposed kind and its training rows (lib/results/rows_test.ts). */
import type { ProposedTask } from "../protocol/mod.ts";

export const PROPOSED_TASK: ProposedTask = {
  kind: "proposed",
  task_id: "prop_1",
  site: "shop",
  macro: "choose_radio",
  instruction: "Add two beanies.",
  start_path: "/shop/products/38",
  option: null,
};
