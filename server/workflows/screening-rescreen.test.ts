// List versions and the rescreen, against a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL): a version
// that adds an address holds the open requests to it, raises the deposits from it and marks the address book; one
// that removes an address waits for a second person (never its importer), and once confirmed its rescreen releases
// the holds that address caused. A rescreen run again writes and raises nothing new. Bad input on the new routes is
// refused on its field, with nothing written.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { HELD_BY_COMPLIANCE } from "@/lib/api/audit/confidential";
import { fieldErrorsOf } from "@/lib/api/errors";
import { declineVersionSchema } from "@/lib/api/screening";
import { destinationFormSchema } from "@/lib/api/withdrawals/destinations";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { openHolds } from "@/server/monitoring/hold";
import { writeLedger } from "@/server/monitoring/testing";
import { importList, runRescreen, screenAddress } from "@/server/screening";
import { addStaff, addToRegistry, domainRefusal, staffSession } from "@/server/testing";
import { screeningVersions } from "./screening-lists";
import { confirmListVersion, declineListVersion, listRescreens } from "./screening-versions";
import { approveDestination, DESTINATION_HELD, listDestinations, requestDestination } from "./withdrawal-destinations";

const carla = staffSession("compliance", "carla");
const cleo = staffSession("compliance", "cleo");
const lead = staffSession("lead", "lead");
const broker = staffSession("broker", "broker");

// Valid TRON addresses (base58check): one to be listed, then delisted; one added by the second version; one clean.
const LISTED = "TGWASS3j87E2Y3D3bLi7G2VErdUYbqpkLz";
const LATER = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";
const CLEAN = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
const SOURCE_SUB = "7100000001";
const REQUEST_SUB = "7100000002";
const BOOK_SUB = "7100000003";

const csv = (...addresses: string[]) =>
  ["address,chain,reason", ...addresses.map((a) => `${a},TRX,test listing`)].join("\n") + "\n";

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[screening][rescreen] on $engine", (engine) => {
  const t = databaseTestBed(engine);
  let bookEntry = "";
  const requestToListed = randomUUID();

  const importCsv = (text: string, by = carla) =>
    importList(t.db, [text], { format: "csv", list: "own-blocklist", importedBy: by.email });
  const count = async (sql: string) => (await t.db.query<{ n: number }>(`SELECT (${sql})::int AS n`)).rows[0]!.n;
  const lastRescreen = async () => (await listRescreens(t.db)).rescreens[0]!;
  const sanctionsAlerts = () =>
    t.db.query<{ sub_uid: string; occurrence: string; status: string; cleared_by: string; clear_reason: string }>(
      `SELECT sub_uid, occurrence, status, cleared_by, clear_reason FROM monitoring_alerts
        WHERE rule_id::text LIKE '5ac70000-%' ORDER BY occurrence`,
    );
  const writes = () =>
    count(`SELECT (SELECT count(*) FROM screenings) + (SELECT count(*) FROM monitoring_alerts)
      + (SELECT count(*) FROM screening_rescreens) + (SELECT count(*) FROM screening_list_versions)
      + (SELECT count(*) FROM monitoring_alerts WHERE status = 'cleared')`);

  beforeAll(async () => {
    await addStaff(t.db, [carla, cleo, lead, broker]);
    await addToRegistry(t.db, BOOK_SUB, "book@x");
    await writeLedger(t.db, {
      deposits: [
        {
          orderId: "dep-listed",
          subUid: SOURCE_SUB,
          coin: "USDT",
          amount: "12000",
          status: "success",
          fromAddress: LISTED,
          ctime: 1_700_000_000_000,
        },
        {
          orderId: "dep-clean",
          subUid: SOURCE_SUB,
          coin: "USDT",
          amount: "5",
          status: "success",
          fromAddress: CLEAN,
          ctime: 1_700_000_100_000,
        },
      ],
      withdrawals: [
        {
          id: requestToListed,
          subUid: REQUEST_SUB,
          coin: "USDT",
          amount: "100",
          address: LISTED,
          state: "requested",
          ms: 1_700_000_200_000,
        },
        {
          id: randomUUID(),
          subUid: REQUEST_SUB,
          coin: "USDT",
          amount: "7",
          address: CLEAN,
          state: "requested",
          ms: 1_700_000_300_000,
        },
      ],
      prices: [],
    });
    // Proposed before any list: screened, no match, kept.
    const form = { subUid: BOOK_SUB, dest: "on_chain", chain: "trc20", address: LISTED, label: "Client's wallet" };
    bookEntry = (await requestDestination(t.db, broker, destinationFormSchema.parse(form))).id;
  });

  it("[screening][rescreen] an added address holds requests, raises deposits, marks the book", async () => {
    expect(
      await count(`SELECT count(*) FROM screenings WHERE subject = 'destination' AND occasion = 'proposal'
      AND NOT matched`),
    ).toBe(1);
    const v1 = await importCsv(csv(LISTED));
    expect([v1.state, v1.active, v1.addedCount, v1.removedCount]).toEqual(["active", true, 1, 0]);
    const queued = await lastRescreen();
    expect([queued.state, queued.versionId, queued.requestedBy]).toEqual(["queued", v1.id, carla.email]);

    const report = (await runRescreen(t.db, queued.id))!;
    expect(report.deposits).toEqual({ screened: 2, matched: 1, noMatch: 1, newMatches: 1 });
    expect(report.requests).toEqual({ screened: 2, matched: 1, newMatches: 1 });
    expect(report.destinations).toEqual({ screened: 1, listed: 1, newlyListed: 1, noLongerListed: 0 });
    expect(report.released).toBe(0);
    expect(report.newMatches.map((c) => [c.subject, c.subjectId, c.lists])).toEqual([
      ["deposit", "dep-listed", ["own-blocklist"]],
      ["destination", bookEntry, ["own-blocklist"]],
      ["withdrawal", requestToListed, ["own-blocklist"]],
    ]);
    const done = await lastRescreen();
    expect([done.state, done.progress.phase]).toEqual(["done", "done"]);
    // The holds, through the ordinary monitoring path.
    expect((await openHolds(t.db, SOURCE_SUB)).map((h) => h.ruleName)).toEqual([
      "Sanctions list: deposit from a listed address",
    ]);
    expect((await openHolds(t.db, REQUEST_SUB)).map((h) => h.ruleName)).toEqual([
      "Sanctions list: withdrawal to a listed address",
    ]);
    // Evidence: a row per matched deposit (none for the clean one), per entry, per open request.
    const rows = await t.db.query<{ subject: string; subject_id: string; matched: boolean }>(
      `SELECT subject, subject_id, matched FROM screenings WHERE rescreen_id = $1 ORDER BY subject, matched`,
      [done.id],
    );
    expect(rows.rows.map((r) => [r.subject, r.matched])).toEqual([
      ["deposit", true],
      ["destination", true],
      ["withdrawal", false],
      ["withdrawal", true],
    ]);
    // The book: listed, said only to a reader of compliance's work; its approval refused.
    const seen = (await listDestinations(t.db, { subUid: BOOK_SUB }, cleo)).items[0]!;
    expect([seen.listed, seen.listedBy]).toEqual([true, [`own-blocklist (version #${v1.id})`]]);
    const unseen = (await listDestinations(t.db, { subUid: BOOK_SUB }, lead)).items[0]!;
    expect([unseen.listed, unseen.listedBy, unseen.state]).toEqual([undefined, undefined, "requested"]);
    const byLead = await domainRefusal(approveDestination(t.db, lead, bookEntry));
    expect([byLead.code, byLead.message]).toEqual(["withdrawal_held", DESTINATION_HELD]);
    expect(DESTINATION_HELD).toMatch(/^Held by compliance/);
    expect(HELD_BY_COMPLIANCE).toMatch(/^Held by compliance/);
    const byCompliance = await domainRefusal(approveDestination(t.db, cleo, bookEntry));
    expect(byCompliance.message).toContain(`own-blocklist (version #${v1.id})`);
    expect((await listDestinations(t.db, { subUid: BOOK_SUB })).items[0]!.state).toBe("requested");
  });

  it("[screening][rescreen] run again it writes nothing twice; a second one raises and releases nothing", async () => {
    const first = await lastRescreen();
    const before = await writes();
    expect(await runRescreen(t.db, first.id)).toBeNull(); // done: nothing to run
    // As if its instance died while it ran: the sweep runs it again.
    await t.db.query(`UPDATE screening_rescreens SET state = 'running' WHERE id = $1`, [first.id]);
    const again = (await runRescreen(t.db, first.id))!;
    expect([again.newMatches, again.gone, again.released]).toEqual([[], [], 0]);
    expect(await writes()).toBe(before);
    // A new rescreen of the same lists: its own evidence rows, nothing raised or released.
    await t.db.query(`INSERT INTO screening_rescreens (version_id, requested_by) VALUES (NULL, 'test')`);
    const second = (await runRescreen(t.db, (await lastRescreen()).id))!;
    expect([second.deposits.newMatches, second.requests.newMatches, second.destinations.newlyListed]).toEqual([
      0, 0, 0,
    ]);
    expect([second.newMatches, second.gone, second.released]).toEqual([[], [], 0]);
    expect(
      await count(`SELECT count(*) FROM monitoring_alerts WHERE status = 'open' AND rule_id::text LIKE '5ac7%'`),
    ).toBe(2);
  });

  it("[screening][rescreen] a removal waits; not its importer, a second person confirms; holds released", async () => {
    const rescreens = (await listRescreens(t.db)).rescreens.length;
    const v2 = await importCsv(csv(LATER));
    expect([v2.state, v2.active, v2.activatedAt, v2.addedCount, v2.removedCount]).toEqual([
      "waiting",
      false,
      null,
      1,
      1,
    ]);
    // Waiting: no lookup uses it, nothing is rescreened, the page shows what it drops.
    expect((await screenAddress(t.db, LISTED)).match).toBe(true);
    expect((await screenAddress(t.db, LATER)).match).toBe(false);
    expect((await listRescreens(t.db)).rescreens).toHaveLength(rescreens);
    const listed = (await screeningVersions(t.db)).versions.find((v) => v.id === v2.id)!;
    expect(listed.removedSample).toEqual([LISTED]);

    const own = await domainRefusal(confirmListVersion(t.db, carla, String(v2.id)));
    expect(own.code).toBe("own_request");
    const confirmed = await confirmListVersion(t.db, cleo, String(v2.id));
    expect([confirmed.state, confirmed.confirmedBy]).toEqual(["active", cleo.email]);
    expect((await domainRefusal(confirmListVersion(t.db, lead, String(v2.id)))).code).toBe("already_decided");
    expect((await screenAddress(t.db, LISTED)).match).toBe(false);

    const run = await lastRescreen();
    expect([run.state, run.versionId, run.requestedBy]).toEqual(["queued", v2.id, cleo.email]);
    const report = (await runRescreen(t.db, run.id))!;
    expect(report.released).toBe(2);
    expect(report.gone.map((c) => [c.subject, c.subjectId])).toEqual([
      ["deposit", "dep-listed"],
      ["withdrawal", requestToListed],
      ["destination", bookEntry],
    ]);
    expect(report.destinations).toEqual({ screened: 1, listed: 0, newlyListed: 0, noLongerListed: 1 });
    const alerts = (await sanctionsAlerts()).rows;
    expect(alerts.map((a) => [a.occurrence, a.status, a.cleared_by])).toEqual([
      ["d:dep-listed", "cleared", "screening"],
      [`w:${requestToListed}`, "cleared", "screening"],
    ]);
    for (const a of alerts) {
      expect(a.clear_reason).toContain(`own-blocklist version #${v2.id}`);
      expect(a.clear_reason).toContain(`confirmed by ${cleo.email}`);
      expect(a.clear_reason).toContain(LISTED);
    }
    expect(await openHolds(t.db, SOURCE_SUB)).toEqual([]);
    expect(await openHolds(t.db, REQUEST_SUB)).toEqual([]);
    expect((await listDestinations(t.db, { subUid: BOOK_SUB }, cleo)).items[0]!.listed).toBe(false);
  });

  it("[screening][rescreen] a waiting version declined is kept, never used, never confirmed after", async () => {
    const v3 = await importCsv(csv(CLEAN));
    expect(v3.state).toBe("waiting");
    const declined = await declineListVersion(t.db, carla, String(v3.id), { reason: "the wrong file" });
    expect([declined.state, declined.declinedBy, declined.declineReason, declined.active]).toEqual([
      "declined",
      carla.email,
      "the wrong file",
      false,
    ]);
    expect((await domainRefusal(confirmListVersion(t.db, cleo, String(v3.id)))).code).toBe("already_decided");
    expect((await screenAddress(t.db, CLEAN)).match).toBe(false);
    expect((await screenAddress(t.db, LATER)).match).toBe(true);
  });

  it("[screening][rescreen] an address listed again after a version dropped it holds again", async () => {
    const v4 = await importCsv(csv(LATER, LISTED), cleo);
    expect([v4.state, v4.addedCount, v4.removedCount]).toEqual(["active", 1, 0]);
    const report = (await runRescreen(t.db, (await lastRescreen()).id))!;
    expect([report.relisted, report.released, report.destinations.newlyListed]).toEqual([2, 0, 1]);
    expect(report.newMatches.map((c) => [c.subject, c.subjectId]).sort()).toEqual(
      [
        ["deposit", "dep-listed"],
        ["destination", bookEntry],
        ["withdrawal", requestToListed],
      ].sort(),
    );
    const open = (await sanctionsAlerts()).rows.filter((a) => a.status === "open");
    expect(open.map((a) => a.occurrence).sort()).toEqual(
      [`d:dep-listed#${(await lastRescreen()).id}`, `w:${requestToListed}#${(await lastRescreen()).id}`].sort(),
    );
    expect((await openHolds(t.db, SOURCE_SUB)).length).toBe(1);
    expect((await openHolds(t.db, REQUEST_SUB)).length).toBe(1);
    // And once more: nothing new.
    await t.db.query(`INSERT INTO screening_rescreens (version_id, requested_by) VALUES (NULL, 'test')`);
    const again = (await runRescreen(t.db, (await lastRescreen()).id))!;
    expect([again.relisted, again.released, again.newMatches]).toEqual([0, 0, []]);
  });

  it("[screening][bad-input] confirm and decline refuse a bad id or reason on its field; nothing written", async () => {
    const before = await writes();
    for (const id of ["abc", "0", "-1", "1.5", "99999999999999999999", ""]) {
      expect((await domainRefusal(confirmListVersion(t.db, cleo, id))).fieldErrors).toEqual({
        id: ["id must be a list version's number"],
      });
      expect(
        Object.keys((await domainRefusal(declineListVersion(t.db, cleo, id, { reason: "ok!" }))).fieldErrors!),
      ).toEqual(["id"]);
    }
    expect((await domainRefusal(confirmListVersion(t.db, cleo, "987654"))).code).toBe("not_found");
    const reason = (raw: unknown) => {
      const r = declineVersionSchema.safeParse(raw);
      return r.success ? null : fieldErrorsOf(r.error);
    };
    expect(reason({})).toEqual({ reason: ["reason is required"] });
    expect(reason({ reason: "  x " })).toEqual({ reason: ["reason must be at least 3 characters"] });
    expect(Object.keys(reason({ reason: "x".repeat(501) }) ?? {})).toEqual(["reason"]);
    expect(Object.keys(reason({ reason: 12 }) ?? {})).toEqual(["reason"]);
    expect(await writes()).toBe(before);
  });
});
