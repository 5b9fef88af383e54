/**
 * The `bundle:` section of toolc.config.yaml: what an MCP Bundle's
 * manifest.json says about the server beyond its tools. Name, version,
 * description and author default to package.json's; the entry point to
 * `dist/server.js` (what `toolc init`'s build writes); the Node.js range to
 * package.json's `engines.node`. `credentials` names the handlers module
 * `toolc import openapi` wrote: the variables it reads become the bundle's
 * user configuration. Every problem is located at the key or value it is about.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { Codes, error } from "../../diagnostics.js";
import type { Diagnostic } from "../../ir.js";
import type { ConfigContext } from "../target.js";
import { bundleVariables, type BundleVariable } from "./credentials.js";

export const PLATFORMS = ["darwin", "win32", "linux"] as const;

export interface BundleAuthor {
  readonly name: string;
  readonly email?: string;
  readonly url?: string;
}

/** The manifest's fields, resolved: plain data, carried in the emit options (and so in the build cache's key). */
export interface BundleOptions {
  readonly name: string;
  readonly displayName?: string;
  readonly version: string;
  readonly description: string;
  readonly author: BundleAuthor;
  readonly license?: string;
  readonly homepage?: string;
  /** The server's entry point, relative to the bundle's root, posix separators. */
  readonly entry: string;
  /** compatibility.runtimes.node: the Node.js versions the server runs on. */
  readonly node: string;
  readonly platforms?: readonly (typeof PLATFORMS)[number][];
  /** The variables the server reads from its environment, asked of the user on install. */
  readonly variables: readonly BundleVariable[];
}

const KEYS = ["name", "displayName", "version", "description", "author", "entry", "node", "platforms", "credentials"] as const;
const DEFAULT_ENTRY = "dist/server.js";
const DEFAULT_NODE = ">=20.0.0";
/** What the manifest's schema takes as an email and a URL (zod's `.email()` and `.url()`), in the plain form a config gives. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_TEXT = /^https?:\/\/\S+$/;

type Path = readonly (string | number)[];

interface PackageFacts {
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
  readonly author?: unknown;
  readonly license?: string;
  readonly homepage?: string;
  readonly node?: string;
}

function packageJson(root: string): PackageFacts {
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
    const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);
    const engines = pkg.engines as Record<string, unknown> | undefined;
    const facts: Record<string, unknown> = {
      name: text(pkg.name),
      version: text(pkg.version),
      description: text(pkg.description),
      author: pkg.author,
      license: text(pkg.license),
      homepage: text(pkg.homepage),
      node: typeof engines === "object" && engines !== null ? text(engines.node) : undefined,
    };
    return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined)) as PackageFacts;
  } catch {
    return {};
  }
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `bundle.author.email`, as messages name a place in the section. */
const named = (path: Path): string => ["bundle", ...path].map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");

class Section {
  readonly out: Diagnostic[] = [];
  constructor(readonly ctx: ConfigContext) {}

  fail(path: Path, message: string, key = false): undefined {
    this.out.push(error(this.ctx.locate(["bundle", ...path], { key }), Codes.invalidValue, message));
    return undefined;
  }

  /** A non-empty string at `path` (or its default), or a diagnostic: at the value, or at the section when neither it nor a default is there. */
  text(value: unknown, path: Path, what: string): string | undefined {
    if (typeof value === "string" && value.trim() !== "") return value;
    if (value === undefined) return this.fail([], `\`bundle\` needs \`${path.join(".")}\`, ${what}`, true);
    return this.fail(path, `\`${named(path)}\` must be ${what}, not ${JSON.stringify(value)}`);
  }

  unknownKeys(value: Record<string, unknown>, known: readonly string[], path: Path): void {
    for (const key of Object.keys(value))
      if (!known.includes(key))
        this.out.push(
          error(
            this.ctx.locate(["bundle", ...path, key], { key: true }),
            Codes.unknownKey,
            `unknown key \`${key}\` in \`${named(path)}\`; it takes ${known.join(", ")}`,
          ),
        );
  }
}

/** package.json's `author`: a person object, or the one-line "Name <email> (url)" form npm documents. */
function personOf(value: unknown): Record<string, unknown> | undefined {
  if (isMap(value)) return value;
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const match = /^([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?$/.exec(value.trim());
  if (match === null) return { name: value.trim() };
  return { name: match[1], ...(match[2] ? { email: match[2] } : {}), ...(match[3] ? { url: match[3] } : {}) };
}

function authorOf(value: unknown, pkg: PackageFacts, s: Section): BundleAuthor | undefined {
  const fromConfig = value !== undefined;
  const person = personOf(fromConfig ? value : pkg.author);
  if (person === undefined)
    return s.fail(
      fromConfig ? ["author"] : [],
      fromConfig
        ? "`bundle.author` must be a mapping with name, and optionally email and url"
        : "`bundle` needs `author` (a mapping with name): package.json has none",
    );
  // A problem in package.json's author is reported at the section: that is where a config overrides it.
  const at = (key: string): Path => (fromConfig && isMap(value) ? ["author", key] : fromConfig ? ["author"] : []);
  if (fromConfig && isMap(value)) s.unknownKeys(value, ["name", "email", "url"], ["author"]);
  const name =
    typeof person.name === "string" && person.name.trim() !== "" ? person.name : s.fail(at("name"), "`bundle.author.name` must be the author's name");
  const email = person.email;
  if (email !== undefined && (typeof email !== "string" || !EMAIL.test(email)))
    s.fail(at("email"), `\`bundle.author.email\` must be an email address, not ${JSON.stringify(email)}`);
  const url = person.url;
  if (url !== undefined && (typeof url !== "string" || !URL_TEXT.test(url)))
    s.fail(at("url"), `\`bundle.author.url\` must be an http(s) URL, not ${JSON.stringify(url)}`);
  if (name === undefined) return undefined;
  return { name, ...(typeof email === "string" ? { email } : {}), ...(typeof url === "string" ? { url } : {}) };
}

/** A path inside the bundle: relative, posix, never above its root. */
function entryOf(value: unknown, s: Section): string | undefined {
  const entry = s.text(value ?? DEFAULT_ENTRY, ["entry"], "the server's stdio entry point, a .js file relative to the bundle's root");
  if (entry === undefined) return undefined;
  if (isAbsolute(entry) || entry.includes("\\") || entry.split("/").includes("..") || !/\.(m|c)?js$/.test(entry))
    return s.fail(["entry"], `\`bundle.entry\` must be a .js file inside the bundle, relative to its root with / separators, not ${JSON.stringify(entry)}`);
  return entry.replace(/^\.\//, "");
}

function platformsOf(value: unknown, s: Section): BundleOptions["platforms"] {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) return s.fail(["platforms"], `\`bundle.platforms\` must be a list of ${PLATFORMS.join(", ")}`);
  const ok = value.every(
    (p, i) =>
      (PLATFORMS as readonly unknown[]).includes(p) ||
      s.fail(["platforms", i], `\`bundle.platforms[${i}]\` must be one of ${PLATFORMS.join(", ")}, not ${JSON.stringify(p)}`),
  );
  return ok ? (value as (typeof PLATFORMS)[number][]) : undefined;
}

function variablesOf(value: unknown, s: Section): readonly BundleVariable[] | undefined {
  if (value === undefined) return [];
  const path = s.text(value, ["credentials"], "the handlers module `toolc import openapi` wrote, relative to the project folder");
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(join(s.ctx.root, path), "utf8");
  } catch {
    return s.fail(["credentials"], `\`bundle.credentials\`: ${JSON.stringify(path)} cannot be read`);
  }
  const read = bundleVariables(text);
  if (read.variables === undefined) return s.fail(["credentials"], `\`bundle.credentials\`: ${path} ${read.problem}`);
  return read.variables;
}

export function parseBundleConfig(value: unknown, ctx: ConfigContext): { options?: BundleOptions; diagnostics: Diagnostic[] } {
  const s = new Section(ctx);
  // `bundle: {}` (or a bare `bundle:`) is a bundle with every default.
  const section = value === null ? {} : value;
  if (!isMap(section)) {
    s.fail([], "`bundle` must be a mapping (`{}` for every default: name, version, description and author from package.json)");
    return { diagnostics: s.out };
  }
  s.unknownKeys(section, KEYS, []);
  const pkg = packageJson(ctx.root);
  const name = s.text(section.name ?? pkg.name?.replace(/^@[^/]+\//, ""), ["name"], "the bundle's name (package.json has none)");
  const displayName = section.displayName === undefined ? undefined : s.text(section.displayName, ["displayName"], "the name a client shows");
  const version = s.text(section.version ?? pkg.version, ["version"], "the server's version (package.json has none)");
  const description = s.text(section.description ?? pkg.description, ["description"], "a description (package.json has none)");
  const author = authorOf(section.author, pkg, s);
  const entry = entryOf(section.entry, s);
  const node = s.text(section.node ?? pkg.node ?? DEFAULT_NODE, ["node"], "a range of Node.js versions, as >=20.0.0");
  const platforms = platformsOf(section.platforms, s);
  const variables = variablesOf(section.credentials, s);
  if (s.out.length > 0 || [name, version, description, author, entry, node, variables].includes(undefined)) return { diagnostics: s.out };
  const options: BundleOptions = {
    name: name!,
    ...(displayName === undefined ? {} : { displayName }),
    version: version!,
    description: description!,
    author: author!,
    ...(pkg.license === undefined ? {} : { license: pkg.license }),
    ...(pkg.homepage === undefined || !URL_TEXT.test(pkg.homepage) ? {} : { homepage: pkg.homepage }),
    entry: entry!,
    node: node!,
    ...(platforms === undefined ? {} : { platforms }),
    variables: variables!,
  };
  return { options, diagnostics: [] };
}
