/**
 * One content hash for every key toolc derives from texts (the build
 * cache's, a target's run key): each part is length-prefixed, so the parts
 * `["ab", "c"]` and `["a", "bc"]` never hash alike. Below every layer, so a
 * target hashes its inputs without reaching the pipeline's cache.
 */
import { createHash } from "node:crypto";

export function hashText(...parts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest("hex");
}
