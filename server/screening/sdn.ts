import "server-only";
// OFAC's SDN list in its advanced XML form, streamed (the file is about 80 MB). Elements are matched by their
// local name, so the legacy namespace (http://www.un.org/sanctions/1.0) and the current one
// (…/api/PublicationPreview/exports/ADVANCED_XML) parse alike. What is read:
// - DateOfIssue (Year, Month, Day): the publish date;
// - ReferenceValueSets/FeatureTypeValues/FeatureType (ID → text), which precede the parties in the file;
// - DistinctParty (FixedRef) › Profile › Identity › Alias[Primary="true"] › … › NamePartValue: the party's name;
// - Feature[FeatureTypeID] whose type text is "Digital Currency Address - <asset>", its
//   FeatureVersion/VersionDetail (the address) and IdentityReference (the party's identity).
// saxes expands no external entity and reads no DTD, so the file cannot reach the network or the disk.
import { SaxesParser, type SaxesTagNS } from "saxes";
import { normaliseAddress } from "@/lib/screening-address";
import { ListParseError, type ChunkParser, type ParseSink } from "./types";

const ADDRESS_TYPE = "Digital Currency Address - ";
const MAX_TEXT = 4096;

const attr = (tag: SaxesTagNS, name: string): string | undefined => tag.attributes[name]?.value;

type OpenFeature = { id: string; asset: string; address: string | null; identity: string | null };

export function sdnParser(sink: ParseSink): ChunkParser {
  const p = new SaxesParser({ xmlns: true, position: true });
  const stack: string[] = [];
  const featureTypes = new Map<string, string>();
  let text: string | null = null;
  let featureTypeId: string | null = null;
  const date: Record<string, number> = {};
  let party: { ref: string | null; name: string | null } = { ref: null, name: null };
  let nameParts: string[] | null = null;
  let feature: OpenFeature | null = null;
  let rootSeen = false;

  const fail = (reason: string): never => {
    throw new ListParseError(reason, { line: p.line, column: p.column, element: stack.join("/") || undefined });
  };
  p.on("error", (e) => {
    // saxes says "line:column: message"; the position is ours to give in one form.
    throw new ListParseError(e.message.replace(/^\d+:\d+: /, ""), {
      line: p.line,
      column: p.column,
      element: stack.join("/") || undefined,
    });
  });
  const parent = () => stack[stack.length - 2];

  p.on("opentag", (tag) => {
    const name = tag.local;
    if (!rootSeen) {
      rootSeen = true;
      if (name !== "Sanctions") fail(`the root element is ${name}, not Sanctions: not an SDN advanced XML file`);
    }
    stack.push(name);
    switch (name) {
      case "FeatureType":
        if (parent() === "FeatureTypeValues") {
          featureTypeId = attr(tag, "ID") ?? fail("a FeatureType without its ID");
          text = "";
        }
        break;
      case "Year":
      case "Month":
      case "Day":
        if (stack.includes("DateOfIssue")) text = "";
        break;
      case "DistinctParty":
        party = { ref: attr(tag, "FixedRef") ?? null, name: null };
        break;
      case "Alias":
        if (attr(tag, "Primary") === "true" && party.name === null) nameParts = [];
        break;
      case "NamePartValue":
        if (nameParts) text = "";
        break;
      case "Feature": {
        const typeId = attr(tag, "FeatureTypeID") ?? fail("a Feature without its FeatureTypeID");
        const type = featureTypes.get(typeId);
        if (type === undefined) fail(`FeatureTypeID ${typeId} is not among the FeatureTypeValues before it`);
        if (type!.startsWith(ADDRESS_TYPE)) {
          const asset = type!.slice(ADDRESS_TYPE.length).trim().toUpperCase();
          feature = { id: attr(tag, "ID") ?? "?", asset, address: null, identity: null };
        }
        break;
      }
      case "VersionDetail":
        if (feature && feature.address === null) text = "";
        break;
      case "IdentityReference":
        if (feature) feature.identity = attr(tag, "IdentityID") ?? null;
        break;
    }
  });

  const onText = (t: string) => {
    if (text === null) return;
    text += t;
    if (text.length > MAX_TEXT) fail(`a ${stack[stack.length - 1]} longer than ${MAX_TEXT} characters`);
  };
  p.on("text", onText);
  p.on("cdata", onText);

  p.on("closetag", (tag) => {
    const name = tag.local;
    const value = text?.trim() ?? "";
    switch (name) {
      case "FeatureType":
        if (featureTypeId !== null) featureTypes.set(featureTypeId, value);
        featureTypeId = null;
        break;
      case "Year":
      case "Month":
      case "Day":
        if (text !== null) {
          if (!/^\d{1,4}$/.test(value)) fail(`DateOfIssue's ${name} is not a number: "${value.slice(0, 20)}"`);
          date[name] = Number(value);
        }
        break;
      case "DateOfIssue": {
        const at = new Date(Date.UTC(date.Year ?? NaN, (date.Month ?? NaN) - 1, date.Day ?? NaN));
        if (Number.isNaN(at.getTime()) || at.getUTCDate() !== date.Day) fail("DateOfIssue is not a date");
        sink.published(at);
        break;
      }
      case "NamePartValue":
        if (nameParts && value) nameParts.push(value);
        break;
      case "Alias":
        if (nameParts) party.name = nameParts.join(" ") || null;
        nameParts = null;
        break;
      case "VersionDetail":
        if (feature && text !== null) feature.address = value;
        break;
      case "Feature":
        if (feature) {
          if (!feature.address) fail(`Feature ${feature.id} (${ADDRESS_TYPE}${feature.asset}) has no VersionDetail`);
          sink.entry({
            address: normaliseAddress(feature.address!),
            listedAs: feature.address!,
            asset: feature.asset,
            partyName: party.name,
            partyRef: party.ref,
            reason: "OFAC SDN",
          });
        }
        feature = null;
        break;
    }
    text = null;
    stack.pop();
  });

  return {
    write: (chunk) => void p.write(chunk),
    end() {
      p.close();
      if (!rootSeen) throw new ListParseError("the file holds no XML element", { line: p.line, column: p.column });
    },
  };
}
