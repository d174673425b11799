import "server-only";
// The list parsers alone (no database): both SDN namespaces give the same addresses, CSV and FtM parse, and a
// file that does not parse says where.
import { describe, expect, it } from "vitest";
import { csvParser } from "./csv";
import { ftmParser } from "./ftm";
import { sdnParser } from "./sdn";
import { fixture, SANCTIONED_SOURCE } from "./testing";
import { ListParseError, type ChunkParser, type ListEntry, type ParseSink } from "./types";

/** Parses `text` in chunks of `size` characters (every boundary a chunk could fall on is a boundary here). */
function parse(make: (s: ParseSink) => ChunkParser, text: string, size = 7) {
  const entries: ListEntry[] = [];
  let published: Date | null = null;
  const p = make({ entry: (e) => entries.push(e), published: (d) => void (published = d) });
  for (let i = 0; i < text.length; i += size) p.write(text.slice(i, i + size));
  p.end();
  return { entries, published: published as Date | null };
}

function failure(make: (s: ParseSink) => ChunkParser, text: string): ListParseError {
  try {
    parse(make, text, 4096);
  } catch (e) {
    if (e instanceof ListParseError) return e;
    throw e;
  }
  throw new Error("parsed without an error");
}

describe("[screening][parse] OFAC SDN advanced XML", () => {
  const current = parse(sdnParser, fixture("sdn-advanced.xml"));
  const legacy = parse(sdnParser, fixture("sdn-advanced-legacy.xml"), 4096);

  it("[screening][parse] reads the addresses, their assets, parties and the date of issue", () => {
    expect(current.published?.toISOString()).toBe("2026-11-27T00:00:00.000Z");
    expect(current.entries.map((e) => [e.asset, e.listedAs, e.address, e.partyName, e.partyRef])).toEqual([
      [
        "XBT",
        "1FAL7tr2XRDwASBeTsFzsU7apiEGDwzrTy",
        "1FAL7tr2XRDwASBeTsFzsU7apiEGDwzrTy",
        "NORTHWIND EXCHANGE OU",
        "91001",
      ],
      [
        "ETH",
        "0xe93a50A9D2Bf14531D618E25A5fE925ebb8E0E2E",
        "0xe93a50a9d2bf14531d618e25a5fe925ebb8e0e2e",
        "NORTHWIND EXCHANGE OU",
        "91001",
      ],
      ["USDT", SANCTIONED_SOURCE, SANCTIONED_SOURCE, "NORTHWIND EXCHANGE OU", "91001"],
      ["TRX", SANCTIONED_SOURCE, SANCTIONED_SOURCE, "NORTHWIND EXCHANGE OU", "91001"],
      [
        "XBT",
        "bc1q9rgxv6qapuq8tzpt80jr0t9fnqqdczqx0420tu",
        "bc1q9rgxv6qapuq8tzpt80jr0t9fnqqdczqx0420tu",
        "KOVAL Andrei Petrovich",
        "91002",
      ],
    ]);
  });

  it("[screening][parse] the legacy namespace, and a prefixed one, give the same addresses", () => {
    expect(fixture("sdn-advanced-legacy.xml")).toContain('xmlns="http://www.un.org/sanctions/1.0"');
    expect(legacy).toEqual(current);
    // Matched by local name: the same document with every element prefixed parses alike.
    const prefixed = fixture("sdn-advanced-legacy.xml")
      .replace('xmlns="http://www.un.org/sanctions/1.0"', 'xmlns:sdn="http://www.un.org/sanctions/1.0"')
      .replace(/<(\/?)([A-Z]\w*)/g, "<$1sdn:$2");
    expect(prefixed).toContain("<sdn:VersionDetail");
    expect(parse(sdnParser, prefixed, 1000)).toEqual(current);
  });

  it("[screening][parse] a truncated file fails at its end, naming the line", () => {
    const text = fixture("sdn-advanced.xml");
    const cut = text.slice(0, text.indexOf("bc1q9rgx"));
    const e = failure(sdnParser, cut);
    expect(e.where.line).toBe(cut.split("\n").length);
    expect(e.message).toMatch(/^line \d+, column \d+, in Sanctions\/DistinctParties\/.*VersionDetail: /);
  });

  it("[screening][parse] malformed XML names its line and column", () => {
    const text = fixture("sdn-advanced.xml").replace(
      "<Comment />\n            <VersionDetail",
      "<Comment>\n<VersionDetail",
    );
    const e = failure(sdnParser, text);
    const line = text.split("\n").findIndex((l) => l.includes("</FeatureVersion>")) + 1;
    expect(e.where.line).toBe(line);
    expect(e.where.element).toMatch(/Profile\/Feature\/FeatureVersion/);
    expect(e.reason).toMatch(/unexpected close tag/);
  });

  it("[screening][parse] an undeclared feature type, a bad date, another root: refused where they are", () => {
    const undeclared = failure(
      sdnParser,
      fixture("sdn-advanced.xml").replace('FeatureTypeID="887"', 'FeatureTypeID="4242"'),
    );
    expect(undeclared.reason).toBe("FeatureTypeID 4242 is not among the FeatureTypeValues before it");
    expect(undeclared.where.element).toMatch(/DistinctParty\/Profile\/Feature$/);
    const date = failure(sdnParser, fixture("sdn-advanced.xml").replace("<Day>27</Day>", "<Day>31</Day>"));
    expect(date.reason).toBe("DateOfIssue is not a date");
    expect(failure(sdnParser, "<?xml version='1.0'?>\n<html><body/></html>").reason).toMatch(/root element is html/);
    const empty = fixture("sdn-advanced.xml").replace(
      '<VersionDetail DetailTypeID="1432">1FAL7tr2XRDwASBeTsFzsU7apiEGDwzrTy</VersionDetail>',
      "",
    );
    expect(failure(sdnParser, empty).reason).toBe(
      "Feature 95001 (Digital Currency Address - XBT) has no VersionDetail",
    );
  });

  it("[screening][parse] an external entity is not expanded (no DTD is read)", () => {
    const text = fixture("sdn-advanced.xml")
      .replace(
        '<?xml version="1.0" standalone="yes"?>',
        '<?xml version="1.0"?>\n<!DOCTYPE S [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
      )
      .replace("1FAL7tr2XRDwASBeTsFzsU7apiEGDwzrTy", "&x;");
    expect(failure(sdnParser, text).message).toMatch(/undefined entity|x/i);
  });
});

describe("[screening][parse] CSV block list", () => {
  it("[screening][parse] reads address, chain and reason, normalising EVM and bech32", () => {
    const { entries } = parse(csvParser, fixture("own-blocklist.csv"));
    expect(entries.map((e) => [e.address, e.asset, e.reason])).toEqual([
      ["TWYLe5Jr25gFzTDhXLupQpCo5SgJQ1CeKz", "TRC20", "Chargeback fraud, case 2026-118"],
      ["0xe93a50a9d2bf14531d618e25a5fe925ebb8e0e2e", "ERC20", "Same operator as an OFAC-listed exchange"],
      ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "BTC", "Mixer deposit address"],
    ]);
    const byAsset = parse(csvParser, "Reason,Asset,Address,note\r\nx,usdt,0xAB12,\r\n").entries;
    expect(byAsset.map((e) => [e.address, e.asset, e.reason])).toEqual([["0xAB12", "USDT", "x"]]);
  });

  it("[screening][parse] a missing column, an empty address, an open quote: refused on their line", () => {
    expect(failure(csvParser, "address,reason\nabc,x\n").message).toBe(
      "line 1: the header has no column chain or asset",
    );
    expect(failure(csvParser, "address,chain,reason\nT1,TRC20,ok\n,TRC20,x\n").message).toBe(
      "line 3: the address is empty",
    );
    expect(failure(csvParser, 'address,chain,reason\nT1,TRC20,"open\n').message).toBe(
      "line 2, column 10: a quoted field is not closed",
    );
    expect(failure(csvParser, "address,chain,reason\nT1,TRC 20,x\n").where.line).toBe(2);
  });
});

describe("[screening][parse] OpenSanctions FollowTheMoney JSON lines", () => {
  it("[screening][parse] reads CryptoWallet entities, their currency and holder, and reads past the rest", () => {
    const { entries } = parse(ftmParser, fixture("opensanctions-wallets.ftm.jsonl"), 50);
    expect(entries.map((e) => [e.address, e.asset, e.partyRef, e.partyName, e.reason])).toEqual([
      [SANCTIONED_SOURCE, "USDT", "ofac-91001", null, "sanction, us_ofac_sdn"],
      [
        "bc1q9rgxv6qapuq8tzpt80jr0t9fnqqdczqx0420tu",
        "XBT",
        "ofac-91002",
        "Andrei Petrovich KOVAL",
        "sanction, us_ofac_sdn",
      ],
      ["0xe93a50a9d2bf14531d618e25a5fe925ebb8e0e2e", "UNKNOWN", "ofac-91001", null, "us_ofac_sdn"],
    ]);
  });

  it("[screening][parse] a line that is not JSON, or a wallet without a key, is refused on its line", () => {
    const lines = fixture("opensanctions-wallets.ftm.jsonl").split("\n");
    expect(failure(ftmParser, [lines[0], lines[1]!.slice(0, 40), lines[2]].join("\n")).where.line).toBe(2);
    expect(failure(ftmParser, '{"schema":"CryptoWallet","properties":{}}').message).toBe(
      "line 1: a CryptoWallet without a publicKey",
    );
  });
});
