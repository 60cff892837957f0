/**
 * Routing: the macro plan of a task, the served model a step of each family goes to, the router that follows an
 * episode's route (advance on macro_done), done-gating and router notes. Pure: no browser, no network, and no arm
 * names (each arm's entry in lib/run/arms.ts says which route its episodes take).
 * @module
 */
export { FAMILY_HINTS } from "./families.ts";
export { type AdapterOptions, familyAdapter, planFamilies, subModel, type SubModelOptions } from "./plan.ts";
export { MAX_GATES } from "./gate.ts";
export {
  createRouter,
  type Observation,
  type RoutePlan,
  Router,
  type RouterOptions,
  type TraceEntry,
} from "./router.ts";
