/**
 * The workspace's members as their deno.json files declare them: the one source of which area may import which
 * (`webmix.uses`) and which npm package (`imports`). tests/boundaries_test.ts checks the module graph against it and
 * docs/architecture.md's diagram against {@link architectureDiagram}; tests/workspace_test.ts shows the resolver
 * refusing what a member does not declare.
 */
import { join } from "node:path";

/** One lib/<area> member. */
export interface Member {
  area: string;
  name: string;
  /** The areas it may import (through their mod.ts). */
  uses: string[];
  /** The npm packages its deno.json declares, as `npm:<name>`. */
  packages: string[];
}

interface MemberConfig {
  name?: string;
  imports?: Record<string, string>;
  webmix?: { uses?: string[] };
}

const readJson = async <T>(path: string): Promise<T> => JSON.parse(await Deno.readTextFile(path)) as T;

/** The package a bare import key names: `hono/` and `hono` both name hono. */
const packageOf = (key: string) => `npm:${key.replace(/\/$/, "")}`;

/** The lib/<area> members of the workspace at `root`, by area, in the root deno.json's order. */
export async function readMembers(root: string): Promise<Member[]> {
  const { workspace = [] } = await readJson<{ workspace?: string[] }>(join(root, "deno.json"));
  const out: Member[] = [];
  for (const dir of workspace) {
    const m = /^\.\/lib\/([a-z_]+)$/.exec(dir);
    if (!m) continue;
    const file = join(root, dir, "deno.json");
    const cfg = await readJson<MemberConfig>(file);
    if (!cfg.name || !Array.isArray(cfg.webmix?.uses)) throw new Error(`${file}: needs "name" and "webmix.uses"`);
    const packages = [...new Set(Object.keys(cfg.imports ?? {}).map(packageOf))];
    out.push({ area: m[1], name: cfg.name, uses: cfg.webmix.uses, packages });
  }
  return out;
}

/** Each area's layer: 0 when it uses nothing, else one above the highest area it uses. */
export function layers(members: Member[]): Map<string, number> {
  const by = new Map(members.map((m) => [m.area, m]));
  const out = new Map<string, number>();
  const visit = (area: string, path: string[]): number => {
    if (out.has(area)) return out.get(area)!;
    if (path.includes(area)) throw new Error(`import cycle: ${[...path, area].join(" -> ")}`);
    const uses = by.get(area)?.uses ?? [];
    const layer = uses.length ? 1 + Math.max(...uses.map((u) => visit(u, [...path, area]))) : 0;
    out.set(area, layer);
    return layer;
  };
  for (const m of members) visit(m.area, []);
  return out;
}

/** The area lines of docs/architecture.md's diagram, top layer first, areas alphabetical within a layer. */
export function architectureDiagram(members: Member[]): string {
  const layer = layers(members);
  const sorted = [...members].sort((a, b) => layer.get(b.area)! - layer.get(a.area)! || a.area.localeCompare(b.area));
  let last = -1;
  return sorted.map((m) => {
    const l = layer.get(m.area)!;
    const head = l === last ? " ".repeat(10) : `layer ${l}`.padEnd(10);
    last = l;
    const uses = m.uses.length ? m.uses.join(" ") : "nothing";
    const pkgs = m.packages.filter((p) => p !== "npm:zod").join(" ");
    return `${head}${m.area} ${".".repeat(Math.max(1, 11 - m.area.length))} ${uses}${pkgs ? `   ${pkgs}` : ""}`;
  }).join("\n");
}
