/**
 * The `registry:` section of toolc.config.yaml: what the MCP registry's
 * server.json says about this server. `name` is required; `description` and
 * `version` default to package.json's; each package's `identifier` and
 * `version` default to package.json's `name` and `version`. Every problem is
 * located at the key or value it is about.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Codes, error } from "../../diagnostics.js";
import type { Diagnostic } from "../../ir.js";
import type { ConfigContext } from "../target.js";

export const REGISTRY_TYPES = ["npm", "pypi", "nuget", "oci", "mcpb"] as const;
export const REMOTE_TYPES = ["streamable-http", "sse"] as const;

export interface ServerJsonPackage {
  readonly registryType: (typeof REGISTRY_TYPES)[number];
  readonly identifier: string;
  readonly version: string;
  readonly transport: { readonly type: "stdio" };
}

export interface ServerJsonRemote {
  readonly type: (typeof REMOTE_TYPES)[number];
  readonly url: string;
}

/** server.json's fields, resolved: plain data, carried in the emit options (and so in the build cache's key). */
export interface ServerJsonOptions {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly websiteUrl?: string;
  readonly packages: readonly ServerJsonPackage[];
  readonly remotes: readonly ServerJsonRemote[];
}

/** The registry's rules for `name` (reverse DNS, one slash) and `description` (server.schema.json). */
const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const MAX_DESCRIPTION = 100;

function packageJson(root: string): { name?: string; version?: string; description?: string } {
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
    const text = (key: string) => (typeof pkg[key] === "string" && pkg[key] !== "" ? { [key]: pkg[key] as string } : {});
    return { ...text("name"), ...text("version"), ...text("description") };
  } catch {
    return {};
  }
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

type Path = readonly (string | number)[];

/** `registry.packages[0].version`, as messages name a place in the section. */
const named = (path: Path): string => ["registry", ...path].map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");

/** A non-empty string at `path`, or a located diagnostic. */
function text(value: unknown, path: Path, ctx: ConfigContext, out: Diagnostic[], what: string): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value;
  out.push(error(ctx.locate(["registry", ...path]), Codes.invalidValue, `\`${named(path)}\` must be ${what}, not ${JSON.stringify(value)}`));
  return undefined;
}

function unknownKeys(value: Record<string, unknown>, known: readonly string[], path: Path, ctx: ConfigContext, out: Diagnostic[]): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const where = `\`${named(path)}\``;
    out.push(
      error(ctx.locate(["registry", ...path, key], { key: true }), Codes.unknownKey, `unknown key \`${key}\` in ${where}; it takes ${known.join(", ")}`),
    );
  }
}

function packageOf(value: unknown, i: number, pkg: ReturnType<typeof packageJson>, ctx: ConfigContext, out: Diagnostic[]): ServerJsonPackage | undefined {
  const path = ["packages", i];
  if (!isMap(value)) {
    out.push(
      error(ctx.locate(["registry", ...path]), Codes.invalidValue, `\`registry.packages[${i}]\` must be a mapping with registryType, identifier and version`),
    );
    return undefined;
  }
  unknownKeys(value, ["registryType", "identifier", "version"], path, ctx, out);
  const type = value.registryType ?? "npm";
  if (!(REGISTRY_TYPES as readonly unknown[]).includes(type)) {
    out.push(
      error(
        ctx.locate(["registry", ...path, "registryType"]),
        Codes.invalidValue,
        `\`registry.packages[${i}].registryType\` must be one of ${REGISTRY_TYPES.join(", ")}, not ${JSON.stringify(type)}`,
      ),
    );
    return undefined;
  }
  const identifier = text(value.identifier ?? pkg.name, [...path, "identifier"], ctx, out, "the package's name (package.json has none)");
  const version = text(value.version ?? pkg.version, [...path, "version"], ctx, out, "an exact version (package.json has none)");
  if (version === "latest") {
    out.push(
      error(ctx.locate(["registry", ...path, "version"]), Codes.invalidValue, `\`registry.packages[${i}].version\` must be an exact version, not "latest"`),
    );
    return undefined;
  }
  if (identifier === undefined || version === undefined) return undefined;
  return { registryType: type as ServerJsonPackage["registryType"], identifier, version, transport: { type: "stdio" } };
}

function remoteOf(value: unknown, i: number, ctx: ConfigContext, out: Diagnostic[]): ServerJsonRemote | undefined {
  const path = ["remotes", i];
  if (!isMap(value)) {
    out.push(error(ctx.locate(["registry", ...path]), Codes.invalidValue, `\`registry.remotes[${i}]\` must be a mapping with type and url`));
    return undefined;
  }
  unknownKeys(value, ["type", "url"], path, ctx, out);
  const type = value.type ?? "streamable-http";
  if (!(REMOTE_TYPES as readonly unknown[]).includes(type)) {
    out.push(
      error(
        ctx.locate(["registry", ...path, "type"]),
        Codes.invalidValue,
        `\`registry.remotes[${i}].type\` must be one of ${REMOTE_TYPES.join(", ")}, not ${JSON.stringify(type)}`,
      ),
    );
    return undefined;
  }
  const url = text(value.url, [...path, "url"], ctx, out, "an https:// URL");
  if (url === undefined) return undefined;
  if (!/^https:\/\/[^\s/]+/.test(url)) {
    out.push(
      error(ctx.locate(["registry", ...path, "url"]), Codes.invalidValue, `\`registry.remotes[${i}].url\` must be an https:// URL, not ${JSON.stringify(url)}`),
    );
    return undefined;
  }
  return { type: type as ServerJsonRemote["type"], url };
}

function listOf(value: unknown, key: "packages" | "remotes", ctx: ConfigContext, out: Diagnostic[]): readonly unknown[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  out.push(error(ctx.locate(["registry", key]), Codes.invalidValue, `\`registry.${key}\` must be a list`));
  return [];
}

export function parseServerJsonConfig(value: unknown, ctx: ConfigContext): { options?: ServerJsonOptions; diagnostics: Diagnostic[] } {
  const out: Diagnostic[] = [];
  if (!isMap(value)) {
    out.push(
      error(
        ctx.locate(["registry"]),
        Codes.invalidValue,
        "`registry` must be a mapping with at least `name` (the server's reverse-DNS name, as io.github.user/server)",
      ),
    );
    return { diagnostics: out };
  }
  unknownKeys(value, ["name", "description", "version", "websiteUrl", "packages", "remotes"], [], ctx, out);
  const pkg = packageJson(ctx.root);
  const name = text(value.name, ["name"], ctx, out, "the server's reverse-DNS name, as io.github.user/server");
  if (name !== undefined && (!NAME.test(name) || name.length > 200))
    out.push(
      error(
        ctx.locate(["registry", "name"]),
        Codes.invalidValue,
        `\`registry.name\` must be a reverse-DNS name with one slash, as io.github.user/server, not ${JSON.stringify(name)}`,
      ),
    );
  const description = text(value.description ?? pkg.description, ["description"], ctx, out, "a description (package.json has none)");
  if (description !== undefined && description.length > MAX_DESCRIPTION)
    out.push(
      error(
        ctx.locate(["registry", "description"]),
        Codes.invalidValue,
        `\`registry.description\` must be at most ${MAX_DESCRIPTION} characters for the registry, not ${description.length}`,
      ),
    );
  const version = text(value.version ?? pkg.version, ["version"], ctx, out, "the server's version (package.json has none)");
  const websiteUrl = value.websiteUrl === undefined ? undefined : text(value.websiteUrl, ["websiteUrl"], ctx, out, "a URL");
  const packages = listOf(value.packages, "packages", ctx, out).map((p, i) => packageOf(p, i, pkg, ctx, out));
  const remotes = listOf(value.remotes, "remotes", ctx, out).map((r, i) => remoteOf(r, i, ctx, out));
  if (packages.length === 0 && remotes.length === 0 && out.length === 0)
    out.push(error(ctx.locate(["registry"]), Codes.invalidValue, "`registry` needs `packages` or `remotes`: how a client installs or reaches the server"));
  if (out.length > 0 || name === undefined || description === undefined || version === undefined) return { diagnostics: out };
  const options: ServerJsonOptions = {
    name,
    description,
    version,
    ...(websiteUrl === undefined ? {} : { websiteUrl }),
    packages: packages.filter((p): p is ServerJsonPackage => p !== undefined),
    remotes: remotes.filter((r): r is ServerJsonRemote => r !== undefined),
  };
  return { options, diagnostics: [] };
}
