/**
 * Chromium's user data folder, made per launch: its preferences forbid WebRTC any UDP that no proxy carries (the
 * command-line switch for it is ignored; the preference holds in every incognito context of the profile).
 */
const PREFERENCES = { webrtc: { ip_handling_policy: "disable_non_proxied_udp" } };

/** A fresh profile folder in the system temp folder; the caller removes it (removeProfile) after Chromium exits. */
export async function makeProfile(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "webmix-chromium-" });
  await Deno.mkdir(`${dir}/Default`);
  await Deno.writeTextFile(`${dir}/Default/Preferences`, JSON.stringify(PREFERENCES));
  return dir;
}

/** Removes a profile folder; never throws. */
export async function removeProfile(dir: string): Promise<void> {
  await Deno.remove(dir, { recursive: true }).catch(() => undefined);
}
