import "server-only";
// Each person's choices: their role's defaults until they choose; saved whole; a type the role does not receive is
// refused on the field, nothing saved; "never" in the app keeps it off the bell.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { databaseTestBed } from "@/server/db/testing";
import { domainRefusal, staffSession } from "@/server/testing";
import { clearMonitoring } from "@/server/monitoring/testing";
import { inbox } from "./inbox";
import { getPreferences, savePreferences } from "./preferences";

describe("[notifications][preferences]", () => {
  const bed = databaseTestBed();
  const lead = staffSession("lead", "plee");
  const compliance = staffSession("compliance", "pcat");

  it("[notifications][preferences] defaults by role, saved whole, refused on the field, 'never' mutes the bell", async () => {
    await clearMonitoring(bed.db);
    const mode = (v: Awaited<ReturnType<typeof getPreferences>>, type: string, channel: string) =>
      v.choices.find((c) => c.type === type && c.channel === channel)?.mode;
    const c = await getPreferences(bed.db, compliance);
    expect(mode(c, "alert.high", "email")).toBe("immediate");
    expect(mode(c, "control.awaiting_second_person", "email")).toBe("digest");
    // A lead is asked to approve at once, and is never offered compliance's alerts.
    const l = await getPreferences(bed.db, lead);
    expect(mode(l, "withdrawal.awaiting_approval", "email")).toBe("immediate");
    expect(l.choices.some((x) => x.type === "alert.high")).toBe(false);

    const refused = await domainRefusal(
      savePreferences(bed.db, lead, {
        choices: [{ type: "alert.high", channel: "email", mode: "immediate" }],
        digestAt: "07:00",
        timeZone: "Europe/Berlin",
      }),
    );
    expect(refused.fieldErrors?.choices?.[0]).toMatch(/does not receive alert.high/);
    expect((await getPreferences(bed.db, lead)).digestAt).toBe("08:00");

    const saved = await savePreferences(bed.db, lead, {
      choices: [{ type: "withdrawal.awaiting_approval", channel: "app", mode: "never" }],
      digestAt: "07:00",
      timeZone: "Europe/Berlin",
    });
    expect(saved).toMatchObject({ digestAt: "07:00", timeZone: "Europe/Berlin" });
    expect(saved.choices.find((x) => x.type === "withdrawal.awaiting_approval" && x.channel === "app")).toMatchObject({
      mode: "never",
      chosen: true,
    });
    const id = randomUUID();
    await bed.db.query(
      `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
         requested_at, state) VALUES ($1, $2, '41', 'USDT', 'on_chain', 'TPrefAddress', '1', 'x', 'someone@test', now(),
         'requested')`,
      [id, `p${id.replaceAll("-", "").slice(0, 30)}`],
    );
    expect(await inbox(bed.db, lead)).toEqual({ items: [], unread: 0 });
    expect((await inbox(bed.db, staffSession("lead", "pother"))).unread).toBe(1);
  });
});
