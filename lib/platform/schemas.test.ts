// The shared building blocks of the catalog's schemas: the envelope and the quirk normalisers.
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import {
  DAY_MS,
  SUCCESS_CODE,
  THREE_MONTHS_MS,
  checkRetention,
  checkSpan,
  envelopeSchema,
  isDecimalString,
  limitParam,
  msTimestamp,
  positiveDecimal,
  renameKeys,
  required,
  wireSide,
  wireStr,
  wireTime,
} from "@/lib/platform/schemas";
import samplesJson from "@/lib/platform/fixtures/spec-samples.json";

const samples = samplesJson as unknown as Record<string, string[]>;

describe("[schemas][envelope]", () => {
  it("[leverage.set][envelope] parses E10's sample whose requestTime is a string", () => {
    const raw = samples["leverage.set"]?.[0] ?? "";
    expect(raw).toContain('"requestTime":"1627293049406"');
    const env = envelopeSchema.parse(JSON.parse(raw));
    expect(env.requestTime).toBe(1627293049406);
    expect(env.code).toBe(SUCCESS_CODE);
    expect(env.msg).toBe("success");
    expect(env.data).toMatchObject({ symbol: "BTCUSDT" });
  });

  it("[schemas][envelope] keeps a numeric requestTime", () => {
    expect(
      envelopeSchema.parse({ code: "00000", msg: "success", requestTime: 1695785115457, data: [] }).requestTime,
    ).toBe(1695785115457);
  });

  it("[schemas][envelope] reads an error envelope with data null and a numeric code as strings", () => {
    const env = envelopeSchema.parse({
      code: 40009,
      msg: "sign signature error",
      requestTime: 1630896973038,
      data: null,
    });
    expect(env).toEqual({ code: "40009", msg: "sign signature error", requestTime: 1630896973038, data: null });
  });

  it("[schemas][envelope] reads a missing msg as empty", () => {
    expect(envelopeSchema.parse({ code: "00000", requestTime: 1, data: null }).msg).toBe("");
  });

  it("[schemas][envelope] refuses a body without requestTime", () => {
    expect(envelopeSchema.safeParse({ code: "00000", msg: "success", data: null }).success).toBe(false);
  });

  it("[schemas][envelope] refuses a body without code", () => {
    expect(envelopeSchema.safeParse({ msg: "success", requestTime: 1, data: null }).success).toBe(false);
  });
});

describe("[schemas][wireTime]", () => {
  it.each([
    ["1695865232", "1695865232000"],
    [1695865232, "1695865232000"],
    ["1695865232579", "1695865232579"],
    [1695865232579, "1695865232579"],
    [" 1695865232579 ", "1695865232579"],
    ["", ""],
  ])("[schemas][wireTime] reads %j as %j", (wire, expected) => {
    expect(wireTime.parse(wire)).toBe(expected);
  });

  it.each([["2023-09-28"], ["-1"], ["1.5"]])("[schemas][wireTime] refuses %j", (wire) => {
    expect(wireTime.safeParse(wire).success).toBe(false);
  });
});

describe("[schemas][wire values]", () => {
  it.each([
    ["x", "x"],
    [12, "12"],
    [null, ""],
    [undefined, ""],
  ])("[schemas][wireStr] reads %j as %j", (wire, expected) => {
    expect(wireStr.parse(wire)).toBe(expected);
  });

  it.each([
    ["Buy", "buy"],
    ["SELL", "sell"],
    ["buy", "buy"],
  ])("[schemas][wireSide] reads %j as %j", (wire, expected) => {
    expect(wireSide.parse(wire)).toBe(expected);
  });

  it("[schemas][renameKeys] copies an alias onto its canonical key and drops the alias", () => {
    const schema = renameKeys(
      { ctime: "cTime" },
      z.object({ cTime: z.string() }).clone({ ...z.object({ cTime: z.string() })._zod.def, catchall: z.never() }),
    );
    expect(schema.parse({ ctime: "1" })).toEqual({ cTime: "1" });
    expect(schema.parse({ cTime: "2", ctime: "1" })).toEqual({ cTime: "2" });
    expect(schema.safeParse({}).success).toBe(false);
  });

  it("[schemas][renameKeys] does not rewrite an array", () => {
    const schema = renameKeys({ ctime: "cTime" }, z.array(z.unknown()));
    expect(schema.parse([{ ctime: "1" }])).toEqual([{ ctime: "1" }]);
  });
});

describe("[schemas][request parts]", () => {
  const messageOf = (schema: z.ZodMiniType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message ?? "";

  it("[schemas][required] refuses empty and blank, naming the field", () => {
    expect(required("symbol").parse("BTCUSDT")).toBe("BTCUSDT");
    expect(messageOf(required("symbol"), "")).toBe("symbol is required");
    expect(messageOf(required("symbol"), "   ")).toBe("symbol is required");
    expect(messageOf(required("symbol"), undefined)).toBe("symbol is required");
  });

  it("[schemas][msTimestamp] accepts digits only, naming the field", () => {
    expect(msTimestamp("startTime").parse("1695865232579")).toBe("1695865232579");
    expect(messageOf(msTimestamp("startTime"), "1695865232579.5")).toContain("startTime");
    expect(messageOf(msTimestamp("startTime"), 1695865232579)).toContain("startTime");
  });

  it.each([
    ["1", true],
    ["100", true],
    ["0", false],
    ["101", false],
    ["-1", false],
    ["1.0", false],
    ["", false],
  ] as const)("[schemas][limitParam] with max 100 reads %j as valid=%j", (limit, ok) => {
    expect(limitParam(100).safeParse(limit).success).toBe(ok);
  });

  it.each([
    ["1", true],
    ["0.1", true],
    ["10.000", true],
    ["0", false],
    ["0.0", false],
    ["01", false],
    [".5", false],
    ["5.", false],
    ["1,5", false],
    ["1e-8", false],
    ["-3", false],
  ] as const)("[schemas][positiveDecimal] reads %j as valid=%j", (amount, ok) => {
    expect(positiveDecimal("amount").safeParse(amount).success).toBe(ok);
  });

  it("[schemas][isDecimalString] agrees with the decimal form", () => {
    expect(isDecimalString("12.5")).toBe(true);
    expect(isDecimalString("1e3")).toBe(false);
  });
});

describe("[schemas][time rules]", () => {
  const T0 = 1_700_000_000_000;
  const spanSchema = (maxSpanMs: number) =>
    z
      .object({ startTime: z.optional(z.string()), endTime: z.optional(z.string()) })
      .check(z.superRefine((v, ctx) => checkSpan(v, ctx, maxSpanMs, "90 days")));
  const retentionSchema = (now: number) =>
    z
      .object({ startTime: z.optional(z.string()) })
      .check(z.superRefine((v, ctx) => checkRetention(v, ctx, 90 * DAY_MS, "90 days", now)));

  it("[schemas][checkSpan] allows exactly the maximum span and refuses 1 ms more, on endTime", () => {
    expect(
      spanSchema(THREE_MONTHS_MS).safeParse({ startTime: String(T0), endTime: String(T0 + THREE_MONTHS_MS) }).success,
    ).toBe(true);
    const issues = spanSchema(THREE_MONTHS_MS).safeParse({
      startTime: String(T0),
      endTime: String(T0 + THREE_MONTHS_MS + 1),
    }).error?.issues;
    expect(issues?.map((i) => [i.path, i.message])).toEqual([
      [["endTime"], "endTime must be within 90 days of startTime"],
    ]);
  });

  it("[schemas][checkSpan] refuses an end before the start, on endTime", () => {
    const issues = spanSchema(DAY_MS).safeParse({ startTime: String(T0), endTime: String(T0 - 1) }).error?.issues;
    expect(issues?.map((i) => i.path)).toEqual([["endTime"]]);
  });

  it("[schemas][checkSpan] says nothing when one bound is missing", () => {
    expect(spanSchema(DAY_MS).safeParse({ startTime: String(T0) }).success).toBe(true);
    expect(spanSchema(DAY_MS).safeParse({ endTime: String(T0) }).success).toBe(true);
  });

  it("[schemas][checkRetention] refuses a start older than the retention, on startTime", () => {
    expect(retentionSchema(T0).safeParse({ startTime: String(T0 - 90 * DAY_MS) }).success).toBe(true);
    const issues = retentionSchema(T0).safeParse({ startTime: String(T0 - 90 * DAY_MS - 1) }).error?.issues;
    expect(issues?.map((i) => i.path)).toEqual([["startTime"]]);
    expect(issues?.[0]?.message).toContain("startTime");
  });
});
