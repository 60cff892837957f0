/** Run-folder records for tests: a run.json that its format accepts, with the fields a test sets. */
import type { ManifestSettings, RunManifest } from "./manifest.ts";

/** A whole run's run.json (replay over no tasks), its settings and tasks patched. */
export function manifestFixture(
  settings: Partial<ManifestSettings> = {},
  tasks: Partial<RunManifest["tasks"]> = {},
): RunManifest {
  return {
    created: "2026-12-03T00:00:00.000Z",
    settings: {
      arm: "replay",
      repeats: 1,
      max_steps: 40,
      timeout_s: 600,
      now: "2026-03-15T10:00:00Z",
      record_rows: false,
      record_family: null,
      human: false,
      verifier_only: false,
      shard: null,
      ...settings,
    },
    tasks: { count: 0, sha256: "0".repeat(64), ids: [], ...tasks },
    served_models: null,
  };
}
