/** The progress formatters (ETA, pass rate over graded episodes, errors apart) and when a log gets a summary line. */
import assert from "node:assert/strict";
import {
  etaMs,
  formatBar,
  formatDuration,
  formatProgress,
  formatStatusCounts,
  noCounts,
  passRate,
  RunProgress,
  type StatusCounts,
} from "./progress.ts";

const counts = (c: Partial<StatusCounts>): StatusCounts => ({ ...noCounts(), ...c });
const mixed = counts({ passed: 7, failed: 1, error: 3, grade_error: 1, pending: 2 });

Deno.test("etaMs() extrapolates the pace so far over the episodes left; unknown before the first one", () => {
  assert.equal(etaMs(60_000, 10, 40), 180_000);
  assert.equal(etaMs(60_000, 40, 40), 0);
  assert.equal(etaMs(5_000, 0, 40), undefined);
  assert.deepEqual([formatDuration(45_400), formatDuration(185_000), formatDuration(7_620_000)], [
    "45s",
    "3m05s",
    "2h07m",
  ]);
});

Deno.test("passRate() counts graded episodes only: errors, grade errors and pending are left out", () => {
  assert.equal(passRate(mixed), "87.5% of 8 graded");
  assert.equal(passRate(counts({ error: 4, pending: 1 })), "none graded");
  assert.equal(
    formatStatusCounts(mixed),
    "7 passed, 1 failed (87.5% of 8 graded); 3 errors, 1 grade error, 2 pending",
  );
});

Deno.test("formatProgress() gives done/total, elapsed and ETA while episodes are left, then the final counts", () => {
  assert.equal(
    formatProgress({ done: 14, total: 56, elapsedMs: 70_000, counts: mixed }),
    "progress: 14/56 episodes, 1m10s elapsed, ETA 3m30s; " + formatStatusCounts(mixed),
  );
  assert.equal(
    formatProgress({ done: 2, total: 2, elapsedMs: 3_000, counts: counts({ passed: 2 }) }),
    "progress: 2/2 episodes, 3s elapsed; 2 passed, 0 failed (100.0% of 2 graded); 0 errors, 0 grade errors, 0 pending",
  );
});

Deno.test("formatBar() draws done/total, times, pass rate and errors within the terminal's width", () => {
  const p = { done: 28, total: 56, elapsedMs: 70_000, counts: mixed };
  assert.equal(
    formatBar(p),
    "[########........] 28/56 1m10s, ETA 1m10s | pass 87.5% of 8 graded | 3 errors",
  );
  const narrow = formatBar(p, 40);
  assert.equal(narrow.length, 39);
  assert.ok(narrow.endsWith("…"));
});

Deno.test("RunProgress in a log: each episode's line, a summary every 25 episodes or 60 s, and one at the end", () => {
  const lines: string[] = [];
  let now = 0;
  const progress = new RunProgress({ total: 60, log: (l) => lines.push(l), now: () => now, tickMs: 0 });
  for (let i = 1; i <= 25; i++) progress.episode(i === 3 ? "error" : "passed", `[${i}/60] episode ${i}`);
  assert.equal(lines.length, 26, "25 episode lines and a summary");
  assert.equal(
    lines[25],
    `progress: 25/60 episodes, 0s elapsed, ETA 0s; ${formatStatusCounts(counts({ passed: 24, error: 1 }))}`,
  );
  now = 59_000;
  progress.tick();
  progress.episode("failed", "[26/60] episode 26");
  assert.equal(lines.length, 27, "neither 60 s nor 25 episodes since the last summary");
  now = 85_000;
  progress.tick();
  assert.match(lines.at(-1)!, /^progress: 26\/60 episodes, 1m25s elapsed, ETA 1m51s; 24 passed, 1 failed/);
  progress.tick();
  assert.equal(lines.length, 28, "the next one 60 s later");
  now = 145_000;
  progress.episode("passed", "[27/60] episode 27");
  assert.deepEqual(lines.slice(-2).map((l) => l.slice(0, 18)), ["[27/60] episode 27", "progress: 27/60 ep"]);
  progress.episode("passed", "[28/60] episode 28");
  progress.close();
  assert.equal(lines.length, 32);
  assert.match(lines.at(-1)!, /^progress: 28\/60 episodes, 2m25s elapsed, ETA 2m46s; 26 passed, 1 failed/);
  progress.close();
  progress.tick();
  assert.equal(lines.length, 32, "closed: nothing more");
});
