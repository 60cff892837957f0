/** Small helpers the app templates share. */
import type { ConditionJson } from "../template.ts";

/** The slug the shop derives a brand's checkbox id from (`Trail Craft` → `trail-craft`). */
export const slug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/**
 * The mail message `id` deleted from `folder`: moved to the trash, or, from the trash itself, deleted for good (the
 * mail app's Delete).
 */
export const messageTrashed = (id: number, folder: string): ConditionJson =>
  folder === "trash"
    ? { change: { site: "mail", table: "messages", op: "delete", key: id, before: { folder: { exact: "trash" } } } }
    : {
      change: {
        site: "mail",
        table: "messages",
        op: "update",
        key: id,
        after: { folder: { exact: "trash" } },
        before: { folder: { exact: folder } },
      },
    };
