/**
 * The environment an imported API's handlers read, as an MCP Bundle's
 * user configuration. `toolc import openapi` writes the variables into the
 * handlers module's header (import/openapi/handlers.ts `environmentLines`):
 *
 *   // Environment:
 *   //   ACME_BASE_URL: the server URL (default https://api.acme.example)
 *   //   ACME_BEARER_TOKEN: security scheme "bearer"
 *   //   ACME_BASIC_USERNAME, ACME_BASIC_PASSWORD: security scheme "basic"
 *
 * A scheme's variables are listed in its binding's order (credentials.ts
 * `schemeBindings`): one for an API key or a bearer token, username and
 * password for basic auth, token, client id, client secret and token URL
 * for OAuth 2.0. The header, not the module's code, is read: the handlers
 * module is TypeScript that imports the generated folder, and the target
 * must not load it.
 */

/** One variable the server reads, as the bundle asks the user for it. */
export interface BundleVariable {
  /** The environment variable. */
  readonly env: string;
  /** The user_config key: the variable in lower case. */
  readonly key: string;
  readonly title: string;
  readonly description: string;
  readonly sensitive: boolean;
  readonly required: boolean;
  readonly default?: string;
}

const HEADER = "// Environment:";
const LINE = /^\/\/ {3}(.+?): (.+)$/;
const SCHEME = /^security scheme ("(?:[^"\\]|\\.)*")$/;
const SERVER = /^the server URL \((?:default (.+)|required: .+)\)$/;

/** The roles of a scheme's variables, by how many it has (schemeBindings' order). */
const ROLES: Readonly<Record<number, readonly { readonly what: string; readonly sensitive: boolean }[]>> = {
  1: [{ what: "API key or token", sensitive: true }],
  2: [
    { what: "user name", sensitive: false },
    { what: "password", sensitive: true },
  ],
  4: [
    { what: "access token", sensitive: true },
    { what: "OAuth client id", sensitive: false },
    { what: "OAuth client secret", sensitive: true },
    { what: "OAuth token URL", sensitive: false },
  ],
};

interface Scheme {
  readonly name: string;
  readonly envs: readonly string[];
}

/**
 * The variables of a handlers module's header, or a sentence saying why
 * there are none to read. A scheme's variables are required when it is the
 * only scheme and needs no choice (an API key, a bearer token, basic auth);
 * with several schemes the handlers send the first whose variables are set,
 * so none is required.
 */
export function bundleVariables(text: string): { readonly variables?: readonly BundleVariable[]; readonly problem?: string } {
  const lines = text.split(/\r?\n/);
  const start = lines.indexOf(HEADER);
  if (start === -1) return { problem: `has no \`${HEADER}\` header: name the handlers module \`toolc import openapi\` wrote` };
  let server: BundleVariable | undefined;
  const schemes: Scheme[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = LINE.exec(line);
    if (match === null) break;
    const [, names, what] = match as unknown as [string, string, string];
    const envs = names.split(", ");
    const url = SERVER.exec(what);
    const scheme = SCHEME.exec(what);
    if (url !== null && envs.length === 1) {
      const env = envs[0]!;
      server = {
        env,
        key: env.toLowerCase(),
        title: "Server URL",
        description: `The API's base URL (${env})`,
        sensitive: false,
        required: url[1] === undefined,
        ...(url[1] === undefined ? {} : { default: url[1] }),
      };
    } else if (scheme !== null && ROLES[envs.length] !== undefined) schemes.push({ name: JSON.parse(scheme[1]!) as string, envs });
    else return { problem: `has a line toolc import openapi does not write in its environment header: ${JSON.stringify(line)}` };
  }
  const sole = schemes.length === 1 && schemes[0]!.envs.length < 4;
  const variables = schemes.flatMap((scheme) =>
    scheme.envs.map((env, i): BundleVariable => {
      const role = ROLES[scheme.envs.length]![i]!;
      return {
        env,
        key: env.toLowerCase(),
        title: `${scheme.name}: ${role.what}`,
        description: `The ${role.what} for security scheme ${JSON.stringify(scheme.name)} (${env})`,
        sensitive: role.sensitive,
        required: sole,
      };
    }),
  );
  return { variables: server === undefined ? variables : [server, ...variables] };
}
