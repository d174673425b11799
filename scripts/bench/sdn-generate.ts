// A generated OFAC SDN advanced XML file in the real file's shape (the fixture's: server/screening/fixtures/
// sdn-advanced.xml), for the screening benchmark: the current namespace, DateOfIssue, the reference values
// (FeatureTypeValues with the digital currency types among others), then DistinctParty › Profile › Identity ›
// Alias › … › NamePartValue, and one Feature per address (FeatureVersion/VersionDetail, IdentityReference). Ten
// addresses a party, assets in turn (XBT legacy and bech32, ETH, USDT and TRX on TRON), plus the simulator's
// sanctioned source. Written without indentation (the whitespace is not the shape) to a file the caller names,
// in a temporary folder: never committed. Alone:
// `node --conditions=react-server --import tsx scripts/bench/sdn-generate.ts <file> [addresses]`.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { SANCTIONED_SOURCE } from "@/server/simulator/data/sanctioned";

const NS = "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADVANCED_XML";
const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const HEX = "0123456789abcdef";
const TYPES = [
  ["344", "XBT"],
  ["345", "ETH"],
  ["887", "USDT"],
  ["998", "TRX"],
] as const;

/** xorshift32: fast and seeded, so a run's file is the same every time. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

export type GeneratedSdn = { bytes: number; addresses: number; sample: string[] };

export async function generateSdnFile(file: string, addresses: number, seed = 46): Promise<GeneratedSdn> {
  const next = rng(seed);
  const chars = (alphabet: string, n: number) => {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    return s;
  };
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  let bytes = 0;
  let buffered = "";
  const write = async (s: string) => {
    buffered += s;
    if (buffered.length < 1 << 20) return;
    bytes += Buffer.byteLength(buffered);
    if (!out.write(buffered)) await once(out, "drain");
    buffered = "";
  };
  const sample: string[] = [];
  await write(
    `<?xml version="1.0" standalone="yes"?>\n<Sanctions xmlns:xsd="http://www.w3.org/2001/XMLSchema" ` +
      `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="${NS}">` +
      `<DateOfIssue><Year>2026</Year><Month>11</Month><Day>27</Day></DateOfIssue><ReferenceValueSets>` +
      `<AliasTypeValues><AliasType ID="1403">Name</AliasType></AliasTypeValues><FeatureTypeValues>` +
      `<FeatureType ID="8" FeatureTypeGroupID="1">Birthdate</FeatureType>` +
      TYPES.map(
        ([id, a]) => `<FeatureType ID="${id}" FeatureTypeGroupID="1">Digital Currency Address - ${a}</FeatureType>`,
      ).join("") +
      `</FeatureTypeValues></ReferenceValueSets><Locations/><IDRegDocuments/><DistinctParties>\n`,
  );
  let id = 100_000;
  for (let n = 0; n < addresses;) {
    const party = ++id;
    const identity = party + 50_000_000;
    await write(
      `<DistinctParty FixedRef="${party}"><Comment/><Profile ID="${party}" PartySubTypeID="3">` +
        `<Identity ID="${identity}" FixedRef="${party}" Primary="true" False="false">` +
        `<Alias FixedRef="${party}" AliasTypeID="1403" Primary="true" LowQuality="false">` +
        `<DocumentedName ID="${party}" FixedRef="${party}" DocNameStatusID="1"><DocumentedNamePart>` +
        `<NamePartValue NamePartGroupID="${party}" ScriptID="215" ScriptStatusID="1" Acronym="false">` +
        `GENERATED PARTY ${chars(B58, 8).toUpperCase()} LTD</NamePartValue></DocumentedNamePart></DocumentedName>` +
        `</Alias></Identity>`,
    );
    for (let k = 0; k < 10 && n < addresses; k++, n++) {
      const [typeId, asset] = TYPES[n % 4]!;
      const address =
        n === 0
          ? SANCTIONED_SOURCE
          : asset === "ETH"
            ? `0x${chars(HEX, 40)}`
            : asset === "XBT"
              ? n % 8 === 0
                ? `bc1q${chars(BECH, 38)}`
                : `1${chars(B58, 33)}`
              : `T${chars(B58, 33)}`;
      if (n % Math.max(1, Math.floor(addresses / 1000)) === 0) sample.push(address);
      const f = ++id;
      await write(
        `<Feature ID="${f}" FeatureTypeID="${typeId}"><FeatureVersion ID="${f}" ReliabilityID="1"><Comment/>` +
          `<VersionDetail DetailTypeID="1432">${address}</VersionDetail></FeatureVersion>` +
          `<IdentityReference IdentityID="${identity}" IdentityFeatureLinkTypeID="1"/></Feature>`,
      );
    }
    await write("</Profile></DistinctParty>\n");
  }
  await write("</DistinctParties><ProfileRelationships/><SanctionsEntries/></Sanctions>\n");
  bytes += Buffer.byteLength(buffered);
  out.end(buffered);
  await once(out, "finish");
  return { bytes, addresses, sample };
}

if (process.argv[1]?.endsWith("sdn-generate.ts")) {
  const [file, n] = process.argv.slice(2);
  if (!file)
    throw new Error(
      "usage: node --conditions=react-server --import tsx scripts/bench/sdn-generate.ts <file> [addresses]",
    );
  const g = await generateSdnFile(file, Number(n ?? 1_000_000));
  // What was generated, beside the file: its size and a sample of its addresses (one in a thousand).
  await writeFile(`${file}.json`, JSON.stringify(g));
  process.stdout.write(`${file}: ${(g.bytes / 2 ** 20).toFixed(1)} MiB, ${g.addresses} addresses\n`);
}
