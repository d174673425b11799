// The Travel Rule's data the suites' on-chain requests carry (with the default threshold, 0, every on-chain
// request needs it): a made-up beneficiary at a named VASP (lib/ivms101-fixtures.ts).
export { FIXTURE_TRAVEL_RULE as TRAVEL_RULE, FIXTURE_SELF_HOSTED as SELF_HOSTED } from "@/lib/ivms101-fixtures";
