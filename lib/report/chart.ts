/**
 * Inline SVG charts for report.html: pass rates by group as horizontal bars, one series per run, each bar with its
 * 95 % interval as a whisker. No script, no external reference.
 * @module
 */
import type { Tally } from "./aggregate.ts";
import { escapeHtml } from "./doc.ts";

/** One run's tallies, in the order of the chart's groups (undefined where the run has no episode of the group). */
interface Series {
  label: string;
  tallies: (Tally | undefined)[];
}

/** Colour-blind-safe series colours (Okabe and Ito), reused past the eighth run. */
const COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];

const LABEL_W = 200, PLOT_W = 440, VALUE_W = 150, BAR_H = 14, BAR_GAP = 3, GROUP_GAP = 12, AXIS_H = 28;

const percent = (x: number) => `${(100 * x).toFixed(0)} %`;
const fmt = (x: number) => x.toFixed(1);

/** A bar chart of pass rates with interval whiskers: `groups` down the side, one bar per series in each. */
export function rateChart(groups: readonly string[], series: readonly Series[]): string {
  const legendH = series.length > 1 ? series.length * 18 + 6 : 4;
  const groupH = series.length * (BAR_H + BAR_GAP) - BAR_GAP + GROUP_GAP;
  const width = LABEL_W + PLOT_W + VALUE_W;
  const height = legendH + groups.length * groupH + AXIS_H;
  const x = (rate: number) => LABEL_W + rate * PLOT_W;
  const parts: string[] = [];
  series.forEach((s, i) => {
    if (series.length < 2) return;
    parts.push(
      `<rect x="${LABEL_W}" y="${4 + i * 18}" width="12" height="12" fill="${COLOURS[i % COLOURS.length]}"/>`,
      `<text x="${LABEL_W + 16}" y="${14 + i * 18}">${escapeHtml(s.label)}</text>`,
    );
  });
  const plotBottom = legendH + groups.length * groupH;
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(
      `<line x1="${fmt(x(tick))}" y1="${legendH}" x2="${fmt(x(tick))}" y2="${plotBottom}" stroke="#dde1e7"/>`,
      `<text x="${fmt(x(tick))}" y="${plotBottom + 16}" text-anchor="middle">${percent(tick)}</text>`,
    );
  }
  groups.forEach((group, g) => {
    const top = legendH + g * groupH + GROUP_GAP / 2;
    const mid = top + (groupH - GROUP_GAP) / 2;
    parts.push(`<text x="${LABEL_W - 8}" y="${fmt(mid + 4)}" text-anchor="end">${escapeHtml(group)}</text>`);
    series.forEach((s, i) => parts.push(bar(s, s.tallies[g], group, top + i * (BAR_H + BAR_GAP), i, x)));
  });
  return `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">` +
    `${parts.join("")}</svg>`;
}

/** One series' bar of a group: the rate, its interval, and the counts beside it. */
function bar(s: Series, t: Tally | undefined, group: string, y: number, i: number, x: (r: number) => number): string {
  const cy = fmt(y + BAR_H / 2);
  const textX = LABEL_W + PLOT_W + 8;
  if (t?.rate === undefined || !t.ci) {
    const why = t ? "no graded episode" : "no episode";
    return `<text x="${textX}" y="${fmt(y + BAR_H - 3)}" fill="#6b7280">${why}</text>`;
  }
  const title = `${group}, ${s.label}: ${t.counts.passed}/${t.graded} passed, ${percent(t.rate)} ` +
    `(95 % CI ${percent(t.ci.lo)} to ${percent(t.ci.hi)})`;
  const [lo, hi] = [x(t.ci.lo), x(t.ci.hi)];
  return `<g><title>${escapeHtml(title)}</title>` +
    `<rect x="${LABEL_W}" y="${y}" width="${fmt(t.rate * PLOT_W)}" height="${BAR_H}" ` +
    `fill="${COLOURS[i % COLOURS.length]}" fill-opacity="0.85"/>` +
    `<line x1="${fmt(lo)}" y1="${cy}" x2="${fmt(hi)}" y2="${cy}" stroke="#1d2330" stroke-width="1.5"/>` +
    `<line x1="${fmt(lo)}" y1="${fmt(y + 2)}" x2="${fmt(lo)}" y2="${fmt(y + BAR_H - 2)}" stroke="#1d2330"/>` +
    `<line x1="${fmt(hi)}" y1="${fmt(y + 2)}" x2="${fmt(hi)}" y2="${fmt(y + BAR_H - 2)}" stroke="#1d2330"/>` +
    `<text x="${textX}" y="${fmt(y + BAR_H - 3)}">${percent(t.rate)} (${t.counts.passed}/${t.graded})</text></g>`;
}
