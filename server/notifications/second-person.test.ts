import "server-only";
// The decisions leverage, keys and webhooks brought wait for a second person, and that person hears of it: written
// by the database when the waiting row is (migration 0175), read by each person as their role may read it now. The
// one who asked is never told to decide their own; the demo's keys, which the start-up adds and approves itself,
// ask nobody.
import { describe, expect, it } from "vitest";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { addStaff, staffSession } from "@/server/testing";
import { inbox } from "./inbox";
import { createWebhook } from "./webhook-endpoints";

const lead = staffSession("lead", "sp-lea");
const lead2 = staffSession("lead", "sp-leb");
const admin = staffSession("admin", "sp-ada");
const admin2 = staffSession("admin", "sp-adb");
const broker = staffSession("broker", "sp-bro");
const compliance = staffSession("compliance", "sp-com");
const everyone = [lead, lead2, admin, admin2, broker, compliance];

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[notifications][second-person] on $engine", (engine) => {
  const bed = databaseTestBed(engine);
  /** What each person's bell says of decisions waiting for a second person (who asked left out), by e-mail. */
  const waiting = async () =>
    Object.fromEntries(
      await Promise.all(
        everyone.map(async (s) => [
          s.email,
          (await inbox(bed.db, s)).items
            .filter((n) => n.type === "control.awaiting_second_person")
            .map((n) => n.text.replace(/ \(asked by .*\)$/, "")),
        ]),
      ),
    ) as Record<string, string[]>;

  it("[notifications] a leverage change, a plan, a policy draft, a key and a webhook each reach the second person only", async () => {
    await bed.db.query("TRUNCATE notification_events, notification_reads CASCADE");
    await addStaff(bed.db, everyone);
    await bed.db.query(
      `INSERT INTO leverage_changes (account, sub_uid, product_type, symbol, leverage, request, reason, requested_by,
         policy_rule, policy_why) VALUES ('sub71', '71', 'USDT-FUTURES', 'BTCUSDT', '40', '{}', 'risk', $1, 'r', 'w')`,
      [lead.email],
    );
    await bed.db.query(
      `INSERT INTO leverage_plans (product_type, margin_coin, source, selection, reason, state, verdict, created_by)
       VALUES ('USDT-FUTURES', 'USDT', 'list', '{}', 'risk', 'waiting', '{}', $1)`,
      [lead2.email],
    );
    // A plan that needs nobody: no notice.
    await bed.db.query(
      `INSERT INTO leverage_plans (product_type, margin_coin, source, selection, reason, state, verdict, created_by)
       VALUES ('USDT-FUTURES', 'USDT', 'list', '{}', 'risk', 'ready', '{}', $1)`,
      [lead.email],
    );
    await bed.db.query(
      `INSERT INTO subaccount_keys (sub_uid, version, kind, sealed, key_hint, state, added_by)
       VALUES ('72', 1, 'hmac', 'v1.x', 'abcd', 'pending', $1), ('73', 1, 'hmac', 'v1.x', 'abcd', 'pending', $2)`,
      [admin.email, "startup:demo-keys"],
    );
    await createWebhook(
      bed.db,
      admin2,
      { url: "http://127.0.0.1:9/hook", format: "standard", audienceRole: "lead", events: ["withdrawal.held"] },
      "simulator",
    );
    const said = await waiting();
    expect(said[lead.email]).toEqual(["A leverage plan waits for a second lead"]);
    expect(said[lead2.email]).toEqual(["A leverage change waits for a second lead"]);
    // Each admin: the other's key or webhook (the demo's key asks nobody); never their own.
    expect(said[admin.email]).toEqual(["A webhook endpoint waits for a second admin"]);
    expect(said[admin2.email]).toEqual(["A sub-account API key waits for a second admin"]);
    for (const who of [broker, compliance]) expect(said[who.email]).toEqual([]);
    const text = JSON.stringify(await inbox(bed.db, admin2));
    expect(text).toContain("/admin/keys");
    expect(text).toContain(admin.email);
  });
});
