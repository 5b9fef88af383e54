import { describe, expect, it } from "vitest";
import { localTypeName, toolFileName, toolTypeName } from "../../generator/emit/ts-names.js";

describe("TypeScript names of a tool (emit/ts-names.ts)", () => {
  it("derives the PascalCase stem of a tool's types from its contract name", () => {
    expect(toolTypeName({ name: "get_order" })).toBe("GetOrder");
    expect(toolTypeName({ name: "repo.search-items" })).toBe("RepoSearchItems");
    expect(toolTypeName({ name: "3d_render" })).toBe("Tool3dRender");
    // Asked again (memoized), the same name.
    expect(toolTypeName({ name: "get_order" })).toBe("GetOrder");
  });

  it("names a tool's files by its contract name", () => {
    expect(toolFileName({ name: "get_order" })).toBe("get_order");
    expect(toolFileName({ name: "repo.search-items" })).toBe("repo.search-items");
  });

  it("names a local $defs entry after its tool and schema", () => {
    expect(localTypeName({ name: "get_order" }, { kind: "local", schema: "output", name: "page" })).toBe("GetOrderOutputPage");
  });
});
