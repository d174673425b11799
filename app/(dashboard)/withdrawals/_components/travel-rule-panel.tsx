"use client";
// A withdrawal's Travel Rule data as it was requested: the originator (the sub-account's holder then), the
// beneficiary, and the beneficiary's VASP or the self-hosted wallet's attestation; and its IVMS101 export, a
// JSON file whose SHA-256 the audit log records (`npm run audit:which -- <file>` finds its entry).
import type { WithdrawalView } from "@/lib/api/withdrawals/ledger";
import type { Ivms101Person } from "@/lib/ivms101";
import { personWords } from "@/lib/ivms101-words";
import { Facts } from "@/components/ui/facts";
import { Panel } from "@/components/ui/panel";
import { hintClass, secondaryButton } from "@/components/ui/styles";
import { SELF_HOSTED_METHOD_WORDS } from "@/lib/api/withdrawals/travel-rule-words";
import { formatUtc } from "@/lib/format";

const leiOf = (p: Ivms101Person | undefined) => {
  const id = p?.legalPerson?.nationalIdentification;
  return id?.nationalIdentifierType === "LEIX" ? id.nationalIdentifier : null;
};

export function TravelRulePanel({ w }: { w: WithdrawalView }) {
  const tr = w.travelRule;
  if (!tr) {
    return (
      <Panel title="Travel Rule">
        <p className={hintClass} data-testid="travel-rule">
          {w.dest === "internal_transfer"
            ? "An internal transfer stays within the broker (one VASP): the Travel Rule does not apply."
            : "Not carried: the request was valued below the Travel Rule's threshold (or made before the rule)."}
        </p>
      </Panel>
    );
  }
  const p = tr.ivms101;
  const vasp = p.beneficiaryVASP?.beneficiaryVASP;
  const items: [string, string][] = [
    ["Originator", p.originator.originatorPersons.map(personWords).join("; ")],
    ["Originator's account", p.originator.accountNumber.join(", ")],
    ["Originating VASP", personWords(p.originatingVASP.originatingVASP)],
    ["Beneficiary", p.beneficiary.beneficiaryPersons.map(personWords).join("; ")],
    ["Beneficiary's account", p.beneficiary.accountNumber.join(", ")],
  ];
  if (vasp) {
    const lei = leiOf(vasp);
    items.push(["Beneficiary's VASP", `${personWords(vasp)}${lei ? `, LEI ${lei}` : ", LEI not known"}`]);
  }
  if (tr.selfHostedWallet) {
    const s = tr.selfHostedWallet;
    items.push(
      ["Beneficiary's wallet", "Self-hosted"],
      ["Ownership attested by", `${s.attestedBy} at ${formatUtc(s.attestedAt)}`],
      ["How", SELF_HOSTED_METHOD_WORDS[s.method]],
      ["Attestation", s.statement],
    );
  }
  items.push([
    "Why it applies",
    tr.thresholdUsdt === "0"
      ? "every on-chain withdrawal carries it (threshold 0)"
      : `valued at ${tr.valueUsdt ?? "no price that day (treated as above)"} USDT; threshold ${tr.thresholdUsdt} USDT`,
  ]);
  return (
    <Panel title="Travel Rule">
      <Facts
        data-testid="travel-rule"
        items={items}
        layout="beside"
        className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm"
        term="font-medium"
        detail="break-words"
      />
      <p>
        <a href={`/api/withdrawals/${w.id}/travel-rule`} className={secondaryButton} download>
          Export IVMS101 JSON
        </a>
      </p>
      <p className={hintClass}>
        As it was when requested: a later change to the sub-account&apos;s holder does not change it. The export&apos;s
        SHA-256 is recorded in the audit log.
      </p>
    </Panel>
  );
}
