// What the platform client and the simulator share of the wire protocol (ARCHITECTURE "Layout"): neither
// imports the other; both import this.
export { buildQuery, isPemPrivateKey, prehash } from "./signing";
export { PLATFORM_ERRORS, describePlatformCode, platformErrorMessage, type KnownPlatformCode } from "./error-codes";
