/**
 * The parser's view of an API description: swagger-parser (through
 * json-schema-ref-parser) bundles the documents documents.ts read and
 * checked, and reads nothing itself. Its own file and http resolvers are
 * turned off; the one resolver left answers from the documents read, and a
 * document not among them (which the reading would have reported) is an
 * error, never a read. Its parsers are off too: the documents are parsed
 * already, by the import's YAML with its alias limit.
 */
import { pathToFileURL } from "node:url";
import { documentKey } from "./documents.js";

/** The key documents.ts gives the document the parser names `url` (an http(s) or file: URL, or a percent-encoded path). */
function keyOf(url: string): string {
  // A Windows path (C:\… or C:/…) is a path, not a URL of scheme `c:`.
  if (/^[a-z]:[\\/]/i.test(url)) return documentKey(pathToFileURL(decodeURI(url)));
  return documentKey(/^[a-z][a-z0-9+.-]*:/i.test(url) ? new URL(url) : new URL(`file://${url}`));
}

/** Options for SwaggerParser.bundle that read only `documents`. */
export function bundleOptions(documents: ReadonlyMap<string, unknown>): object {
  return {
    resolve: {
      file: false,
      http: false,
      read: {
        order: 1,
        canRead: true,
        read(file: { url: string }): unknown {
          const key = keyOf(file.url);
          if (documents.get(key) === undefined) throw new Error(`${file.url} was not read by the import`);
          return documents.get(key);
        },
      },
    },
    parse: {
      json: false,
      yaml: false,
      text: false,
      binary: false,
      // Already parsed: each document is handed over as the value it is.
      parsed: { order: 1, canParse: true, allowEmpty: true, parse: (file: { data: unknown }) => file.data },
    },
  };
}

/** Options for SwaggerParser.validate of the bundled document, whose references are all local: nothing external is read. */
export const VALIDATE_OPTIONS = { resolve: { external: false, file: false, http: false } } as const;
