/**
 * The task generator (docs/generation.md): templates over the sandbox apps, instantiated from each app's seeded
 * data with a seeded RNG into task lines (with template, parameters, chain and split), and the proof every instance
 * passes before it is shipped (reference passes, noop fails, its near misses fail), and demonstrations: the proven
 * references as training rows in the model's form.
 * @module
 */
export {
  CAPACITY_BEGIN,
  CAPACITY_END,
  capacityMarkdown,
  type CapacityRow,
  capacityRows,
  endConditionsOf,
  withCapacityBlock,
} from "./capacity.ts";
export { seedDb } from "./data.ts";
export {
  capacityOf,
  GEN_VERSION,
  generate,
  type GenLine,
  type GenMeta,
  type GenOptions,
  instantiate,
  paramsKey,
  selectTemplates,
  splitOf,
} from "./generate.ts";
export { demonstrate, type DemonstrateOptions, type DemonstrationReport, selectInstances } from "./demonstrate.ts";
export {
  DEMONSTRATION_SOURCE,
  type DemonstrationRowsOptions,
  type DemonstrationRowsSummary,
  writeDemonstrationRows,
} from "./demonstration_rows.ts";
export { type Dropped, type ProofOptions, type ProofReport, prove } from "./prove.ts";
export {
  episodeKey,
  type EpisodeRecordings,
  type Outcome,
  type RecordedEpisode,
  runScripted,
  type ScriptedEpisode,
  type ScriptedRunOptions,
} from "./episodes.ts";
export { hash32, Rng } from "./rng.ts";
export {
  type ActionJson,
  type AlternativeRoute,
  type AnyTemplate,
  type Built,
  type ConditionJson,
  type Json,
  type NearMiss,
  type NearMissCategory,
  type Params,
  phrase,
  type Phrasing,
  styleOf,
  type Template,
  template,
} from "./template.ts";
export {
  type Alternative,
  type AlternativeKind,
  type Attack,
  type AttackKind,
  goal,
  layered,
  type LayeredTemplate,
  type ListModel,
  type MenuModel,
  type PageModel,
  type PagerModel,
  PAGES,
  procedure,
  type SearchModel,
  type Segment,
  type Style,
  STYLES,
} from "./macros/mod.ts";
export type { BoardModel, TabStripModel } from "./macros/mod.ts";
export type { StarsModel } from "./macros/mod.ts";
export { period, plural } from "./text.ts";
export { TEMPLATES } from "./templates/mod.ts";
export { episodeEvidence, type Expectation, outcomeProblem, type Script, scriptedArm } from "./variants.ts";
