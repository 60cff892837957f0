/**
 * Routing: the macro plan of a task, the served model of each step per arm, the router that follows the plan
 * (advance on macro_done), done-gating and router notes. Pure: no browser, no network.
 * @module
 */
export { ADAPTER_OF_FAMILY, FAMILY_HINTS, familyOf, MACRO_FAMILY, REASONING } from "./families.ts";
export {
  armModels,
  type ArmModelsOptions,
  familyModel,
  familyPlan,
  planFamilies,
  type PlanTask,
  ROUTED_ARMS,
  type RoutedArm,
  subModel,
  type SubModelOptions,
} from "./plan.ts";
export { gateDone, MAX_GATES, premature, routerNote } from "./gate.ts";
export {
  createRouter,
  type CreateRouterOptions,
  type Observation,
  Router,
  type RouterOptions,
  type TraceEntry,
} from "./router.ts";
