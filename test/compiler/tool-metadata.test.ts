/**
 * The contract keys for MCP's tool metadata and results: `$schema` (only
 * 2020-12, served as written in both schemas), `content` kinds, `icons`,
 * tool-name rules and annotations that follow effect and idempotency. Each
 * mistake is a located diagnostic; a good contract compiles into what the
 * runtime serves.
 */
import { describe, expect, it } from "vitest";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { emitProvidersModule } from "../../generator/emit/providers/module.js";
import { projectWith } from "./helpers.js";

const TOOL = `name: render_chart
version: 1
description: Render a chart.
effect: read
input:
  type: object
  properties:
    metric: { type: string, maxLength: 64 }
  required: [metric]
output:
  type: object
  properties:
    points: { type: integer }
  required: [points]
`;

function compile(text: string) {
  const dir = projectWith({ "t.yaml": text });
  const result = normalize(loadDefinitions(`${dir}/definitions`, { displayRoot: dir }));
  return { tools: result.ir.tools, lines: result.diagnostics.map(formatDiagnostic) };
}

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

describe("$schema", () => {
  it("serves a stated 2020-12 dialect first in both schemas, as written", () => {
    const { tools, lines } = compile(`$schema: ${DIALECT}\n${TOOL}`);
    expect(lines).toEqual([]);
    const [tool] = tools;
    expect(Object.entries(tool!.inputSchema)[0]).toEqual(["$schema", DIALECT]);
    expect(Object.entries(tool!.outputSchema)[0]).toEqual(["$schema", DIALECT]);
    expect(tool!.inputSchema["additionalProperties"]).toBe(false);
  });

  it("is left out of the provider exports: it names the contract's dialect, not the provider's", () => {
    const { tools } = compile(`$schema: ${DIALECT}\n${TOOL}`);
    const text = emitProvidersModule({ tools, typeFiles: [] }).text;
    expect(text).toContain("render_chart");
    expect(text).not.toContain("$schema");
    expect(text).not.toContain("json-schema.org");
  });

  it("leaves both schemas without $schema when the contract states none", () => {
    const [tool] = compile(TOOL).tools;
    expect(tool!.inputSchema).not.toHaveProperty("$schema");
  });

  it("refuses any other dialect, located at the value (TC038)", () => {
    const { lines } = compile(`$schema: http://json-schema.org/draft-07/schema#\n${TOOL}`);
    expect(lines).toEqual([expect.stringMatching(/^definitions\/t\.yaml:1:10: error TC038: `\$schema` "http:\/\/json-schema.org\/draft-07\/schema#" is not a dialect toolc compiles/)]);
  });

  it("points an editor-support $schema to the yaml-language-server comment", () => {
    const { lines } = compile(`$schema: ../node_modules/toolc/schema/contract.schema.json\n${TOOL}`);
    expect(lines[0]).toMatch(/TC038: .*yaml-language-server/);
  });

  it("accepts 2020-12 at the root of input or output, as schemas copied from elsewhere carry it, and serves it as written", () => {
    const { tools, lines } = compile(TOOL.replace("input:\n  type: object", `input:\n  type: object\n  $schema: ${DIALECT}`));
    expect(lines).toEqual([]);
    expect(Object.keys(tools[0]!.inputSchema)).toEqual(["type", "$schema", "properties", "required", "additionalProperties"]);
    expect(tools[0]!.outputSchema).not.toHaveProperty("$schema");
  });

  it("refuses another dialect at the root of output (TC038), and $schema below a root (TC030)", () => {
    const draft7 = compile(TOOL.replace("output:\n  type: object", "output:\n  $schema: http://json-schema.org/draft-07/schema#\n  type: object"));
    expect(draft7.lines).toEqual([expect.stringMatching(/^definitions\/t\.yaml:11:12: error TC038: `\$schema` "http:\/\/json-schema.org\/draft-07\/schema#" is not a dialect toolc compiles/)]);
    const nested = compile(TOOL.replace("metric: { type: string, maxLength: 64 }", `metric: { type: string, maxLength: 64, $schema: ${DIALECT} }`));
    expect(nested.lines).toEqual([expect.stringMatching(/^definitions\/t\.yaml:8:44: error TC030: `\$schema` is read only at the root of `input` or `output`/)]);
  });
});

describe("content kinds", () => {
  it("are kept in the contract's order", () => {
    const { tools, lines } = compile(`${TOOL}content: [resource_link, image]\n`);
    expect(lines).toEqual([]);
    expect(tools[0]!.content).toEqual(["resource_link", "image"]);
  });

  it("are absent when the contract declares none", () => {
    expect(compile(TOOL).tools[0]).not.toHaveProperty("content");
  });

  it("must be MCP kinds, each once", () => {
    expect(compile(`${TOOL}content: [image, video]\n`).lines).toEqual([expect.stringMatching(/^definitions\/t\.yaml:15:18: error TC003: `content\[1\]` must be one of text, image, audio, resource, resource_link/)]);
    expect(compile(`${TOOL}content: [image, image]\n`).lines[0]).toMatch(/t\.yaml:15:10: error TC003: `content`/);
    expect(compile(`${TOOL}content: []\n`).lines[0]).toMatch(/t\.yaml:15:10: error TC003: `content`/);
  });
});

describe("icons and title", () => {
  const ICONS = "icons:\n  - src: https://example.com/a.png\n    mimeType: image/png\n    sizes: [48x48, 96x96]\n    theme: light\n  - src: data:image/svg+xml;base64,PHN2Zy8+\n";

  it("are kept as written", () => {
    const { tools, lines } = compile(`${TOOL}title: Render a chart\n${ICONS}`);
    expect(lines).toEqual([]);
    expect(tools[0]!.title).toBe("Render a chart");
    expect(tools[0]!.annotations.title).toBe("Render a chart");
    expect(tools[0]!.icons).toEqual([
      { src: "https://example.com/a.png", mimeType: "image/png", sizes: ["48x48", "96x96"], theme: "light" },
      { src: "data:image/svg+xml;base64,PHN2Zy8+" },
    ]);
  });

  it("locate a bad icon: a src that is not an http(s) or data: URI, an unknown theme, a size that is not WxH or any", () => {
    expect(compile(`${TOOL}icons:\n  - src: /local/a.png\n`).lines).toEqual([expect.stringMatching(/^definitions\/t\.yaml:16:10: error TC003: `icons\[0\]\.src`/)]);
    expect(compile(`${TOOL}icons:\n  - { src: "https://e.com/a.png", theme: blue }\n`).lines).toEqual([expect.stringMatching(/t\.yaml:16:42: error TC003: `icons\[0\]\.theme` must be one of light, dark/)]);
    expect(compile(`${TOOL}icons:\n  - { src: "https://e.com/a.png", sizes: [big] }\n`).lines).toEqual([expect.stringMatching(/t\.yaml:16:43: error TC003: `icons\[0\]\.sizes\[0\]`/)]);
    expect(compile(`${TOOL}icons:\n  - { href: "https://e.com/a.png" }\n`).lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/TC004: missing required field `src`/), expect.stringMatching(/TC002: unknown key `href`/)]),
    );
  });
});

describe("tool names", () => {
  it("must be 1 to 128 of A-Z a-z 0-9 _ . -, located at the name (TC011)", () => {
    expect(compile(TOOL.replace("name: render_chart", `name: ${"a".repeat(129)}`)).lines).toEqual([expect.stringMatching(/^definitions\/t\.yaml:1:7: error TC011/)]);
    expect(compile(TOOL.replace("name: render_chart", "name: render/chart")).lines).toEqual([expect.stringMatching(/^definitions\/t\.yaml:1:7: error TC011/)]);
    expect(compile(TOOL.replace("name: render_chart", `name: ${"a".repeat(128)}`)).lines.filter((l) => l.includes("error"))).toEqual([]);
  });

  it("warn when valid for MCP but beyond other providers' limits (TC012)", () => {
    expect(compile(TOOL.replace("name: render_chart", "name: charts.render")).lines).toContainEqual(expect.stringMatching(/t\.yaml:1:7: warning TC012/));
  });
});

describe("annotations follow effect and idempotency", () => {
  it("serve hints derived from effect and idempotent", () => {
    const [write] = compile(TOOL.replace("effect: read", "effect: destructive\nidempotent: true")).tools;
    expect(write!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
  });

  it("warn when a read says it is not idempotent: the served hints would contradict each other (TC042)", () => {
    const { lines, tools } = compile(TOOL.replace("effect: read", "effect: read\nidempotent: false"));
    expect(lines).toEqual([expect.stringMatching(/^definitions\/t\.yaml:5:13: warning TC042: `idempotent: false` on an `effect: read` tool/)]);
    expect(tools[0]!.annotations.idempotentHint).toBe(false);
  });
});
