import { describe, expect, it } from "vitest";
import { PATH_PARAM_MAX, nulProblems, pathParamProblems, readQuery } from "./input";

describe("[http][input] what every route refuses before its schema", () => {
  it("[http][input] a query parameter given twice is refused on its name (the last one used to win)", () => {
    expect(readQuery(new URLSearchParams("subUid=1&subUid=2&coin=USDT"))).toEqual({
      query: { subUid: "1", coin: "USDT" },
      problems: { subUid: ["subUid is given more than once; send it once"] },
    });
    expect(readQuery(new URLSearchParams("subUid=1&coin=USDT"))).toEqual({
      query: { subUid: "1", coin: "USDT" },
      problems: null,
    });
    // An empty value counts as given.
    expect(readQuery(new URLSearchParams("a=&a=1")).problems).toEqual({
      a: ["a is given more than once; send it once"],
    });
  });

  it("[http][input] a NUL in any string is named by its top-level field, at any depth and in keys", () => {
    expect(nulProblems({ reason: "pay\u0000out", amount: "1" })).toEqual({
      reason: ["reason must not contain a NUL character (\\u0000)"],
    });
    expect(nulProblems({ params: { startTime: "1", deep: [{ x: ["a\u0000"] }] } })).toEqual({
      params: ["params must not contain a NUL character (\\u0000)"],
    });
    expect(nulProblems({ params: { "k\u0000": "v" } })).toEqual({
      params: ["params must not contain a NUL character (\\u0000)"],
    });
    expect(nulProblems({ "a\u0000b": "v" })).toEqual({
      "a\\u0000b": ["a\\u0000b must not contain a NUL character (\\u0000)"],
    });
    expect(nulProblems("just\u0000a string")).toEqual({ _: ["_ must not contain a NUL character (\\u0000)"] });
    expect(nulProblems({ reason: "fine, with a\ttab and\nnewline", n: 1, b: true, z: null })).toBeNull();
  });

  it("[http][input] a deeply nested body is walked without recursion", () => {
    let deep: unknown = "x\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulProblems({ params: deep })).toEqual({ params: ["params must not contain a NUL character (\\u0000)"] });
  });

  it("[http][input] path parameters longer than any id, or holding control characters, are refused on their name", () => {
    expect(pathParamProblems({ id: "a".repeat(5_000) })).toEqual({
      id: [`id must be at most ${PATH_PARAM_MAX} characters`],
    });
    expect(pathParamProblems({ id: "\u0000" })).toEqual({ id: ["id must not contain control characters"] });
    expect(pathParamProblems({ uid: "123\n" })).toEqual({ uid: ["uid must not contain control characters"] });
    expect(pathParamProblems({ id: "8c2f7d4e-1b2a-4c3d-9e8f-0a1b2c3d4e5f", uid: "5481892133" })).toBeNull();
    expect(pathParamProblems({})).toBeNull();
  });
});
