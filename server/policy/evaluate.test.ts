// The money-out policy's decision, pure: every match kind and action in a table, then properties over random
// policies and facts (fast-check): the first matching rule decides, and the approvals that complete a
// withdrawal come from distinct people, none of them the requester, in the roles the rule named.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/api/errors";
import {
  APPROVING_ROLES,
  DEFAULT_ACTION,
  DEFAULT_RULE_NAME,
  DESTINATION_KINDS,
  policyRulesSchema,
  requirementWords,
  stillNeededWords,
  type Condition,
  type GivenApproval,
  type PolicyAction,
  type PolicyRule,
  type Requirement,
} from "@/lib/policy";
import { ROLES, type Role } from "@/lib/rbac";
import { nextApproval } from "./approvals";
import { evaluatePolicy, ruleMatches, windowKey, windowsOf, type WithdrawalFacts } from "./evaluate";

const facts = (over: Partial<WithdrawalFacts> = {}): WithdrawalFacts => ({
  coin: "USDT",
  amount: "100",
  valueUsdt: "100",
  destination: "address_book",
  subUid: "1001",
  subLabel: "desk group A",
  requesterRole: "broker",
  windows: {},
  ...over,
});

const leadAndCompliance: PolicyAction = {
  kind: "allow",
  approvals: [
    { role: "lead", count: 1 },
    { role: "compliance", count: 1 },
  ],
};
const rule = (when: Condition[], match: "all" | "any" = "all"): PolicyRule => ({
  name: "r",
  match,
  when,
  then: leadAndCompliance,
});

describe("[policy][evaluate] each match kind", () => {
  it.each<[string, Condition, Partial<WithdrawalFacts>, boolean]>([
    ["coin: listed", { kind: "coin", coins: ["USDT", "BTC"] }, {}, true],
    ["coin: not listed", { kind: "coin", coins: ["BTC"] }, {}, false],
    ["amount: above, in its coin", { kind: "amount", coin: "USDT", over: "99.99" }, {}, true],
    ["amount: equal is not above", { kind: "amount", coin: "USDT", over: "100" }, {}, false],
    ["amount: another coin's threshold", { kind: "amount", coin: "BTC", over: "1" }, {}, false],
    ["amount: decimals, not floats", { kind: "amount", coin: "USDT", over: "0.3" }, { amount: "0.30000001" }, true],
    ["value: above", { kind: "value", over: "50000" }, { valueUsdt: "60000" }, true],
    ["value: below", { kind: "value", over: "50000" }, { valueUsdt: "49999.99" }, false],
    ["value: no price is above (fail closed)", { kind: "value", over: "50000" }, { valueUsdt: null }, true],
    ["destination: new address", { kind: "destination", is: ["new_address"] }, { destination: "new_address" }, true],
    ["destination: in the book", { kind: "destination", is: ["new_address"] }, {}, false],
    [
      "destination: registry transfer",
      { kind: "destination", is: ["internal_registry"] },
      { destination: "internal_registry" },
      true,
    ],
    ["sub-account: listed", { kind: "subaccount", subUids: ["1001"] }, {}, true],
    ["sub-account: not listed", { kind: "subaccount", subUids: ["2002"] }, {}, false],
    ["sub-account: its group (registry label)", { kind: "subaccount", labels: ["desk group A"] }, {}, true],
    ["sub-account: another group", { kind: "subaccount", labels: ["desk group B"] }, {}, false],
    ["sub-account: no label", { kind: "subaccount", labels: ["desk group A"] }, { subLabel: null }, false],
    ["requester: role", { kind: "requester", roles: ["broker"] }, {}, true],
    ["requester: other role", { kind: "requester", roles: ["lead"] }, {}, false],
    [
      "velocity: count above",
      { kind: "velocity", hours: 24, count: 2 },
      { windows: { [windowKey(24, null)]: { count: 3, amount: null, valueUsdt: "300" } } },
      true,
    ],
    [
      "velocity: count at the limit",
      { kind: "velocity", hours: 24, count: 3 },
      { windows: { [windowKey(24, null)]: { count: 3, amount: null, valueUsdt: "300" } } },
      false,
    ],
    [
      "velocity: amount of the coin above",
      { kind: "velocity", hours: 1, coin: "USDT", amount: "1000" },
      { windows: { [windowKey(1, "USDT")]: { count: 2, amount: "1000.01", valueUsdt: "1000.01" } } },
      true,
    ],
    [
      "velocity: another coin's window",
      { kind: "velocity", hours: 1, coin: "BTC", amount: "1" },
      { windows: { [windowKey(1, "BTC")]: { count: 9, amount: "9", valueUsdt: "9" } } },
      false,
    ],
    [
      "velocity: value above",
      { kind: "velocity", hours: 24, valueUsdt: "100000" },
      { windows: { [windowKey(24, null)]: { count: 2, amount: null, valueUsdt: "100000.5" } } },
      true,
    ],
    [
      "velocity: unknown value is above (fail closed)",
      { kind: "velocity", hours: 24, valueUsdt: "100000" },
      { windows: { [windowKey(24, null)]: { count: 1, amount: null, valueUsdt: null } } },
      true,
    ],
  ])("%s", (_name, condition, over, matches) => {
    expect(ruleMatches(rule([condition]), facts(over))).toBe(matches);
    const decided = evaluatePolicy([{ ...rule([condition]), name: "only" }], facts(over));
    expect(decided.rule).toBe(matches ? "only" : DEFAULT_RULE_NAME);
  });

  it("all: every condition; any: one of them", () => {
    const usdtOver50k: Condition = { kind: "value", over: "50000" };
    const newAddress: Condition = { kind: "destination", is: ["new_address"] };
    expect(ruleMatches(rule([usdtOver50k, newAddress], "all"), facts({ valueUsdt: "60000" }))).toBe(false);
    expect(ruleMatches(rule([usdtOver50k, newAddress], "any"), facts({ valueUsdt: "60000" }))).toBe(true);
    expect(ruleMatches(rule([usdtOver50k, newAddress], "any"), facts({ destination: "new_address" }))).toBe(true);
    expect(ruleMatches(rule([usdtOver50k, newAddress], "any"), facts())).toBe(false);
  });

  it("a velocity window the facts were not read for is a fault, never a guess", () => {
    expect(() => ruleMatches(rule([{ kind: "velocity", hours: 24, count: 1 }]), facts())).toThrow(/not read/);
    expect(
      windowsOf([
        rule([
          { kind: "velocity", hours: 24, count: 1 },
          { kind: "velocity", hours: 24, coin: "BTC" },
        ]),
      ]),
    ).toEqual([
      { hours: 24, coin: null },
      { hours: 24, coin: "BTC" },
    ]);
  });
});

describe("[policy][evaluate] each action", () => {
  it("allow: the rule's approvals; block: its reason; nothing matching: the default, one lead", () => {
    const rules: PolicyRule[] = [
      {
        name: "No BTC",
        match: "all",
        when: [{ kind: "coin", coins: ["BTC"] }],
        then: { kind: "block", reason: "not today" },
      },
      { name: "Big", match: "any", when: [{ kind: "value", over: "50000" }], then: leadAndCompliance },
    ];
    expect(evaluatePolicy(rules, facts({ coin: "BTC" }))).toEqual({
      rule: "No BTC",
      ruleIndex: 0,
      action: { kind: "block", reason: "not today" },
    });
    expect(evaluatePolicy(rules, facts({ valueUsdt: "60000" }))).toEqual({
      rule: "Big",
      ruleIndex: 1,
      action: leadAndCompliance,
    });
    expect(evaluatePolicy(rules, facts())).toEqual({
      rule: DEFAULT_RULE_NAME,
      ruleIndex: null,
      action: DEFAULT_ACTION,
    });
    expect(evaluatePolicy([], facts()).action).toEqual({ kind: "allow", approvals: [{ role: "lead", count: 1 }] });
  });

  it("the schema refuses more than three approvals, a role twice, a role that cannot approve, and names twice", () => {
    const of = (then: unknown, name = "a") => [{ name, match: "all", when: [{ kind: "coin", coins: ["USDT"] }], then }];
    expect(policyRulesSchema.safeParse(of({ kind: "allow", approvals: [{ role: "lead", count: 3 }] })).success).toBe(
      true,
    );
    expect(
      policyRulesSchema.safeParse(
        of({
          kind: "allow",
          approvals: [
            { role: "lead", count: 3 },
            { role: "compliance", count: 1 },
          ],
        }),
      ).success,
    ).toBe(false);
    expect(
      policyRulesSchema.safeParse(
        of({
          kind: "allow",
          approvals: [
            { role: "lead", count: 1 },
            { role: "lead", count: 1 },
          ],
        }),
      ).success,
    ).toBe(false);
    expect(policyRulesSchema.safeParse(of({ kind: "allow", approvals: [{ role: "admin", count: 1 }] })).success).toBe(
      false,
    );
    expect(policyRulesSchema.safeParse(of({ kind: "allow", approvals: [{ role: "broker", count: 1 }] })).success).toBe(
      false,
    );
    expect(policyRulesSchema.safeParse(of({ kind: "allow", approvals: [] })).success).toBe(false);
    expect(policyRulesSchema.safeParse(of({ kind: "block", reason: "no" })).success).toBe(false);
    const twice = [...of({ kind: "block", reason: "not now" }), ...of({ kind: "block", reason: "not now" })];
    expect(policyRulesSchema.safeParse(twice).success).toBe(false);
  });

  it("says what is required and what is still needed", () => {
    const req: Requirement[] = [
      { role: "lead", count: 1 },
      { role: "compliance", count: 1 },
    ];
    expect(requirementWords(req)).toBe("one lead and one compliance");
    expect(stillNeededWords(req, [])).toBe("needs lead and compliance");
    expect(stillNeededWords(req, [{ by: "l@x", role: "lead" }])).toBe("needs one more approval: compliance");
    expect(stillNeededWords([{ role: "lead", count: 2 }], [])).toBe("needs two leads");
    expect(stillNeededWords([{ role: "lead", count: 3 }], [{ by: "a", role: "lead" }])).toBe(
      "needs two more approvals: two leads",
    );
    expect(
      stillNeededWords(req, [
        { by: "l@x", role: "lead" },
        { by: "c@x", role: "compliance" },
      ]),
    ).toBeNull();
  });
});

// ---- properties -----------------------------------------------------------------------------------

const coin = fc.constantFrom("USDT", "BTC", "ETH");
const decimal = fc.integer({ min: 1, max: 200_000 }).map(String);
const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ kind: fc.constant("coin" as const), coins: fc.uniqueArray(coin, { minLength: 1 }) }),
  fc.record({ kind: fc.constant("amount" as const), coin, over: decimal }),
  fc.record({ kind: fc.constant("value" as const), over: decimal }),
  fc.record({
    kind: fc.constant("destination" as const),
    is: fc.uniqueArray(fc.constantFrom(...DESTINATION_KINDS), { minLength: 1 }),
  }),
  fc.record({
    kind: fc.constant("subaccount" as const),
    subUids: fc.uniqueArray(fc.constantFrom("1001", "2002"), { minLength: 1 }),
  }),
  fc.record({
    kind: fc.constant("subaccount" as const),
    labels: fc.uniqueArray(fc.constantFrom("A", "B"), { minLength: 1 }),
  }),
  fc.record({
    kind: fc.constant("requester" as const),
    roles: fc.uniqueArray(fc.constantFrom(...ROLES), { minLength: 1 }),
  }),
  fc.record({ kind: fc.constant("velocity" as const), hours: fc.constant(24), count: fc.integer({ min: 0, max: 5 }) }),
);
const requirements: fc.Arbitrary<Requirement[]> = fc
  .uniqueArray(fc.constantFrom(...APPROVING_ROLES), { minLength: 1, maxLength: APPROVING_ROLES.length })
  .chain((roles) => fc.tuple(...roles.map((role) => fc.integer({ min: 1, max: 3 }).map((count) => ({ role, count })))))
  .filter((rs) => rs.reduce((n, r) => n + r.count, 0) <= 3);
const ruleArb = (i: number): fc.Arbitrary<PolicyRule> =>
  fc.record({
    name: fc.constant(`rule ${i}`),
    match: fc.constantFrom("all" as const, "any" as const),
    when: fc.array(condition, { minLength: 1, maxLength: 3 }),
    then: fc.oneof(
      requirements.map((approvals) => ({ kind: "allow" as const, approvals })),
      fc.constant({ kind: "block" as const, reason: "blocked by test" }),
    ),
  });
const policy = fc
  .integer({ min: 0, max: 6 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => ruleArb(i))));
const factsArb: fc.Arbitrary<WithdrawalFacts> = fc.record({
  coin,
  amount: decimal,
  valueUsdt: fc.option(decimal, { nil: null }),
  destination: fc.constantFrom(...DESTINATION_KINDS),
  subUid: fc.constantFrom("1001", "2002", "3003"),
  subLabel: fc.constantFrom("A", "B", null),
  requesterRole: fc.constantFrom<Role>("broker", "lead"),
  windows: fc
    .integer({ min: 1, max: 8 })
    .map((count) => ({ [windowKey(24, null)]: { count, amount: null, valueUsdt: null } })),
});

describe("[policy][property]", () => {
  it("the first matching rule decides; none matching, the default", () => {
    fc.assert(
      fc.property(policy, factsArb, (rules, f) => {
        expect(policyRulesSchema.safeParse(rules).success).toBe(true);
        const decision = evaluatePolicy(rules, f);
        const first = rules.findIndex((r) => ruleMatches(r, f));
        if (first < 0) {
          expect(decision).toEqual({ rule: DEFAULT_RULE_NAME, ruleIndex: null, action: DEFAULT_ACTION });
        } else {
          expect(decision.ruleIndex).toBe(first);
          expect(decision.action).toEqual(rules[first]!.then);
          // No rule before it matches.
          expect(rules.slice(0, first).some((r) => ruleMatches(r, f))).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("approvals that complete a withdrawal come from distinct people, never the requester, in the roles required", () => {
    const staff = fc.uniqueArray(
      fc.record({
        email: fc.constantFrom("a", "b", "c", "d", "e", "f", "req").map((n) => `${n}@x`),
        role: fc.constantFrom(...ROLES),
      }),
      { selector: (s) => s.email, maxLength: 12 },
    );
    // Any sequence of attempts, repeated people included: the gate takes some and refuses the rest.
    const attempts = staff.chain((people) =>
      people.length ? fc.array(fc.constantFrom(...people), { maxLength: 12 }) : fc.constant<typeof people>([]),
    );
    fc.assert(
      fc.property(requirements, attempts, (required, tries) => {
        const requestedBy = "REQ@x";
        const given: GivenApproval[] = [];
        let completed = false;
        for (const t of tries) {
          if (completed) break;
          try {
            const step = nextApproval(required, given, t, requestedBy);
            given.push({ by: t.email, role: t.role });
            completed = step.completes;
          } catch (e) {
            expect(e).toBeInstanceOf(DomainError);
          }
        }
        const people = given.map((g) => g.by.toLowerCase());
        expect(new Set(people).size).toBe(people.length);
        expect(people).not.toContain(requestedBy.toLowerCase());
        for (const r of required) expect(given.filter((g) => g.role === r.role).length).toBeLessThanOrEqual(r.count);
        expect(given.every((g) => required.some((r) => r.role === g.role))).toBe(true);
        if (completed) for (const r of required) expect(given.filter((g) => g.role === r.role).length).toBe(r.count);
        expect(completed).toBe(stillNeededWords(required, given) === null);
      }),
      { numRuns: 500 },
    );
  });
});
