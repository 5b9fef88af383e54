/** The header every generated file starts with: what made it, from what, and not to edit it. */
import { GENERATED_MARKER } from "../write/output.js";
import { TOOLC_VERSION } from "../version.js";

export function headerLine(source: string): string {
  return `${GENERATED_MARKER} ${TOOLC_VERSION} from ${source}. DO NOT EDIT.`;
}

/** As a `//` comment, for TS and JS files. Newlines in `source` cannot break out of the comment. */
export function headerComment(source: string): string {
  return `// ${headerLine(source.replace(/[\r\n\u2028\u2029]/g, " "))}`;
}
