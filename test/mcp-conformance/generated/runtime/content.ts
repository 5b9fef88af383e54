// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Content blocks: what a handler adds to a successful result with
 * `ctx.attach(block)`, besides its structured output. The shapes are MCP's
 * (2025-11-25). Blocks are checked only when the handler attached some, once
 * it has returned: copied as plain JSON, like the output, and the copy
 * checked and sent. A block that breaks its shape, or whose kind the
 * contract does not declare, fails the call as invalid output would.
 */
import type { ToolIssue } from "./envelope.js";
import { uri } from "./formats.js";
import { copyJson } from "./json.js";
import { encodeToken } from "./pointer.js";

export type ContentKind =
  "text" | "image" | "audio" | "resource" | "resource_link";

/** MCP's annotations on a content block: hints for the client, not for the model. */
export interface ContentAnnotations {
  audience?: ("user" | "assistant")[];
  /** 0 (least important) to 1 (most). */
  priority?: number;
  /** ISO 8601, e.g. "2025-01-12T15:00:58Z". */
  lastModified?: string;
}

/** An icon, as MCP 2025-11-25 defines it for tools and resource links. */
export interface Icon {
  /** An https: URL or a data: URI. */
  src: string;
  mimeType?: string;
  /** e.g. ["48x48"], or ["any"] for a scalable format. */
  sizes?: string[];
  theme?: "light" | "dark";
}

interface BlockExtras {
  annotations?: ContentAnnotations;
  _meta?: { [key: string]: unknown };
}

export interface TextBlock extends BlockExtras {
  type: "text";
  text: string;
}

export interface ImageBlock extends BlockExtras {
  type: "image";
  /** Base64. */
  data: string;
  /** image/png, image/jpeg, … */
  mimeType: string;
}

export interface AudioBlock extends BlockExtras {
  type: "audio";
  /** Base64. */
  data: string;
  /** audio/wav, audio/mpeg, … */
  mimeType: string;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: { [key: string]: unknown };
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64. */
  blob: string;
  _meta?: { [key: string]: unknown };
}

/** A resource embedded in the result: its text or its bytes (base64), never both. */
export interface EmbeddedResourceBlock extends BlockExtras {
  type: "resource";
  resource: TextResourceContents | BlobResourceContents;
}

/** A link to a resource the client may read; it need not appear in resources/list. */
export interface ResourceLinkBlock extends BlockExtras {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
}

export type ContentBlock =
  | TextBlock
  | ImageBlock
  | AudioBlock
  | EmbeddedResourceBlock
  | ResourceLinkBlock;

/** The blocks of the given kinds: `ContentBlockOf<"image">` is ImageBlock. */
export type ContentBlockOf<Kind extends ContentKind> = Extract<
  ContentBlock,
  { type: Kind }
>;

export const CONTENT_KINDS: readonly ContentKind[] = [
  "text",
  "image",
  "audio",
  "resource",
  "resource_link",
];

const EXTRAS = ["annotations", "_meta"];
const KEYS: Readonly<Record<ContentKind, ReadonlySet<string>>> = {
  text: new Set(["type", "text", ...EXTRAS]),
  image: new Set(["type", "data", "mimeType", ...EXTRAS]),
  audio: new Set(["type", "data", "mimeType", ...EXTRAS]),
  resource: new Set(["type", "resource", ...EXTRAS]),
  resource_link: new Set([
    "type",
    "uri",
    "name",
    "title",
    "description",
    "mimeType",
    "size",
    "icons",
    ...EXTRAS,
  ]),
};
const RESOURCE_KEYS: ReadonlySet<string> = new Set([
  "uri",
  "mimeType",
  "text",
  "blob",
  "_meta",
]);
const ICON_KEYS: ReadonlySet<string> = new Set([
  "src",
  "mimeType",
  "sizes",
  "theme",
]);
const ANNOTATION_KEYS: ReadonlySet<string> = new Set([
  "audience",
  "priority",
  "lastModified",
]);

/** A character class and a length check, not one pattern with groups: data runs to megabytes. */
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;
/** `type/subtype`, with optional parameters (`text/plain; charset=utf-8`). */
const MEDIA_TYPE =
  /^([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*)\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(?:\s*;.*)?$/;

export function isBase64(value: unknown): boolean {
  return (
    typeof value === "string" &&
    value.length > 0 &&
    value.length % 4 === 0 &&
    BASE64_CHARS.test(value)
  );
}

/** A `type/subtype` media type; with `top`, one under that top-level type (`image`, `audio`). */
export function isMediaType(value: unknown, top?: string): boolean {
  if (typeof value !== "string") return false;
  const match = MEDIA_TYPE.exec(value);
  return (
    match !== null && (top === undefined || match[1]?.toLowerCase() === top)
  );
}

type Fields = { readonly [key: string]: unknown };

const isRecord = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isText = (value: unknown): boolean => typeof value === "string";
const isName = (value: unknown): boolean =>
  typeof value === "string" && value.length > 0;

/** Collects the issues of one block; `at` is the block's JSON pointer, `/content/<i>`. */
class BlockCheck {
  readonly issues: ToolIssue[] = [];

  need(ok: boolean, at: string, message: string): void {
    if (!ok) this.issues.push({ path: at, message });
  }

  /** No key beyond `allowed`: a block carries what MCP defines, nothing the handler let slip. */
  closed(value: Fields, allowed: ReadonlySet<string>, at: string): void {
    for (const key of Object.keys(value))
      this.need(
        allowed.has(key),
        `${at}/${encodeToken(key)}`,
        "is not a field of this block",
      );
  }

  optional(
    value: Fields,
    key: string,
    ok: (v: unknown) => boolean,
    at: string,
    message: string,
  ): void {
    if (value[key] !== undefined)
      this.need(ok(value[key]), `${at}/${key}`, message);
  }

  extras(block: Fields, at: string): void {
    this.optional(block, "_meta", isRecord, at, "must be an object");
    const annotations = block["annotations"];
    if (annotations === undefined) return;
    if (!isRecord(annotations))
      return this.need(false, `${at}/annotations`, "must be an object");
    const where = `${at}/annotations`;
    this.closed(annotations, ANNOTATION_KEYS, where);
    this.optional(
      annotations,
      "audience",
      (v) =>
        Array.isArray(v) && v.every((a) => a === "user" || a === "assistant"),
      where,
      'must be a list of "user" and "assistant"',
    );
    this.optional(
      annotations,
      "priority",
      (v) => typeof v === "number" && v >= 0 && v <= 1,
      where,
      "must be a number from 0 to 1",
    );
    this.optional(
      annotations,
      "lastModified",
      isText,
      where,
      "must be an ISO 8601 timestamp",
    );
  }

  media(block: Fields, top: "image" | "audio", at: string): void {
    this.need(
      isBase64(block["data"]),
      `${at}/data`,
      "must be non-empty base64",
    );
    this.need(
      isMediaType(block["mimeType"], top),
      `${at}/mimeType`,
      `must be an ${top}/* media type`,
    );
  }

  resource(block: Fields, at: string): void {
    const resource = block["resource"];
    const where = `${at}/resource`;
    if (!isRecord(resource))
      return this.need(
        false,
        where,
        "must be an object with uri and text or blob",
      );
    this.closed(resource, RESOURCE_KEYS, where);
    this.need(
      typeof resource["uri"] === "string" && uri(resource["uri"]),
      `${where}/uri`,
      "must be an absolute URI",
    );
    this.optional(
      resource,
      "mimeType",
      (v) => isMediaType(v),
      where,
      "must be a type/subtype media type",
    );
    this.optional(resource, "_meta", isRecord, where, "must be an object");
    const hasText = resource["text"] !== undefined;
    const hasBlob = resource["blob"] !== undefined;
    this.need(
      hasText !== hasBlob,
      where,
      "must have exactly one of text and blob",
    );
    if (hasText)
      this.need(isText(resource["text"]), `${where}/text`, "must be a string");
    if (hasBlob)
      this.need(
        isBase64(resource["blob"]),
        `${where}/blob`,
        "must be non-empty base64",
      );
  }

  icons(value: unknown, at: string): void {
    if (!Array.isArray(value))
      return this.need(false, at, "must be a list of icons");
    value.forEach((icon: unknown, i) => {
      const where = `${at}/${i}`;
      if (!isRecord(icon))
        return this.need(false, where, "must be an object with src");
      this.closed(icon, ICON_KEYS, where);
      this.need(
        typeof icon["src"] === "string" && uri(icon["src"]),
        `${where}/src`,
        "must be an absolute URI",
      );
      this.optional(
        icon,
        "mimeType",
        (v) => isMediaType(v),
        where,
        "must be a type/subtype media type",
      );
      this.optional(
        icon,
        "sizes",
        (v) => Array.isArray(v) && v.every(isText),
        where,
        "must be a list of strings",
      );
      this.optional(
        icon,
        "theme",
        (v) => v === "light" || v === "dark",
        where,
        'must be "light" or "dark"',
      );
    });
  }

  link(block: Fields, at: string): void {
    this.need(
      typeof block["uri"] === "string" && uri(block["uri"]),
      `${at}/uri`,
      "must be an absolute URI",
    );
    this.need(
      isName(block["name"]),
      `${at}/name`,
      "must be a non-empty string",
    );
    this.optional(block, "title", isText, at, "must be a string");
    this.optional(block, "description", isText, at, "must be a string");
    this.optional(
      block,
      "mimeType",
      (v) => isMediaType(v),
      at,
      "must be a type/subtype media type",
    );
    this.optional(
      block,
      "size",
      (v) => typeof v === "number" && Number.isInteger(v) && v >= 0,
      at,
      "must be a whole number of bytes",
    );
    if (block["icons"] !== undefined) this.icons(block["icons"], `${at}/icons`);
  }

  block(
    block: unknown,
    declared: readonly ContentKind[] | undefined,
    at: string,
  ): void {
    if (!isRecord(block))
      return this.need(false, at, "must be a content block object");
    const kind = block["type"];
    if (
      typeof kind !== "string" ||
      !(CONTENT_KINDS as readonly string[]).includes(kind)
    ) {
      return this.need(
        false,
        `${at}/type`,
        `must be one of ${CONTENT_KINDS.join(", ")}`,
      );
    }
    const known = kind as ContentKind;
    if (declared !== undefined && !declared.includes(known)) {
      return this.need(
        false,
        `${at}/type`,
        `is \`${known}\`, which the contract does not declare (content: ${declared.join(", ")})`,
      );
    }
    this.closed(block, KEYS[known], at);
    this.extras(block, at);
    if (known === "text")
      this.need(isText(block["text"]), `${at}/text`, "must be a string");
    else if (known === "image" || known === "audio")
      this.media(block, known, at);
    else if (known === "resource") this.resource(block, at);
    else this.link(block, at);
  }
}

export type CheckedContent =
  { ok: true; blocks: ContentBlock[] } | { ok: false; issues: ToolIssue[] };

/**
 * Copies `attached` as plain JSON and checks every block's shape, and its
 * kind against `declared` (undefined: any kind). Issue paths are JSON
 * pointers into the attachments, `/content/0/data`: they cannot be mistaken
 * for a path in the output. Never throws.
 */
export function checkContent(
  attached: readonly unknown[],
  declared: readonly ContentKind[] | undefined,
): CheckedContent {
  const copy = copyJson(attached);
  if (!copy.ok)
    return { ok: false, issues: [{ path: "/content", message: copy.message }] };
  const blocks = copy.value as unknown[];
  const check = new BlockCheck();
  for (let i = 0; i < blocks.length; i++)
    check.block(blocks[i], declared, `/content/${i}`);
  return check.issues.length === 0
    ? { ok: true, blocks: blocks as ContentBlock[] }
    : { ok: false, issues: check.issues };
}
