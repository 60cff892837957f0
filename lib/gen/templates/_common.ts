/** Small helpers the app templates share. */

/** The slug the shop derives a brand's checkbox id from (`Trail Craft` → `trail-craft`). */
export const slug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
