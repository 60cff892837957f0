/** Base64 of bytes without building one string per byte (screenshots are hundreds of kB every step). */
import { Buffer } from "node:buffer";

export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}
