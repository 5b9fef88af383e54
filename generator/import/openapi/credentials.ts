/**
 * Which credential a tool's handler sends, in words: appended to the
 * contract's description (so the catalog, which shows it, says it per tool)
 * and listed per tool in the import report. The handlers apply the first
 * alternative whose variables are all set (openapi-http.ts `Credentials`), so
 * the words name each alternative with the variables it reads.
 */
import type { SecuritySchemeBinding } from "../../openapi-runtime/openapi-http.js";
import type { SecurityRequirements, SecurityScheme } from "./model.js";

type Binding = SecuritySchemeBinding;

export function envName(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts]
    .join("_")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toUpperCase()
    .replace(/_+/g, "_");
}

/** Each scheme with the environment variables it reads, or undefined for one the handlers cannot apply. */
export function schemeBindings(prefix: string, schemes: Readonly<Record<string, SecurityScheme>>): Record<string, SecuritySchemeBinding> {
  const out: Record<string, SecuritySchemeBinding> = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    const base = envName(prefix, name);
    const token = /_TOKEN$/.test(base) ? base : `${base}_TOKEN`;
    if (scheme.type === "apiKey") out[name] = { type: "apiKey", in: scheme.in, name: scheme.name, env: base };
    else if (scheme.type === "bearer") out[name] = { type: "bearer", env: token };
    else if (scheme.type === "basic") out[name] = { type: "basic", env: { username: `${base}_USERNAME`, password: `${base}_PASSWORD` } };
    else if (scheme.type === "oauth2") {
      out[name] = {
        type: "oauth2",
        ...(scheme.tokenUrl === undefined ? {} : { tokenUrl: scheme.tokenUrl }),
        env: { token, clientId: `${base}_CLIENT_ID`, clientSecret: `${base}_CLIENT_SECRET`, tokenUrl: `${base}_TOKEN_URL` },
      };
    }
  }
  return out;
}

function schemeWords(name: string, scheme: SecurityScheme | undefined, binding: Binding | undefined): string {
  const label = `\`${name}\``;
  if (scheme === undefined) return `${label} (not declared by the description, so nothing is sent)`;
  if (binding === undefined) return `${label} (${scheme.type === "unsupported" ? scheme.why : "a scheme"} the handlers cannot apply, so nothing is sent)`;
  if (binding.type === "apiKey") return `${label}: API key in the ${binding.in} ${JSON.stringify(binding.name)}, from ${binding.env}`;
  if (binding.type === "bearer") return `${label}: bearer token from ${binding.env}`;
  if (binding.type === "basic") return `${label}: basic auth from ${binding.env.username} and ${binding.env.password}`;
  const grant = scheme.type === "oauth2" && scheme.clientCredentials ? `, else one obtained with ${binding.env.clientId} and ${binding.env.clientSecret}` : "";
  return `${label}: OAuth 2.0 bearer token from ${binding.env.token}${grant}`;
}

/**
 * The credentials the handler sends for `security`, or undefined when the
 * description declares no scheme at all (there is nothing to say).
 */
export function credentialWords(security: SecurityRequirements, schemes: Readonly<Record<string, SecurityScheme>>, envPrefix: string): string | undefined {
  if (Object.keys(schemes).length === 0) return undefined;
  if (security.length === 0) return "none (the description exempts this operation from its security schemes)";
  const bindings: Readonly<Record<string, Binding | undefined>> = schemeBindings(envPrefix, schemes);
  const alternatives = security.map((names) =>
    names.length === 0 ? "none (the description allows anonymous calls)" : names.map((n) => schemeWords(n, schemes[n], bindings[n])).join(" and "),
  );
  return alternatives.join("; or ");
}

/** The description with the credential sentence after it. */
export function withCredentials(description: string, words: string | undefined): string {
  return words === undefined ? description : `${description.trimEnd()}\n\nCredentials: ${words}.`;
}
