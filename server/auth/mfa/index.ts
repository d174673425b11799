import "server-only";
// Second factors: TOTP, passkeys and recovery codes; the factor step; the fresh-factor rule.
export * from "./policy";
export {
  listFactors,
  factorKindsOf,
  countFactors,
  mfaStatus,
  startTotp,
  confirmTotp,
  verifyTotpFactor,
  removeFactor,
  resetFactors,
  pendingResetNotice,
  markResetNoticeSeen,
  resetNoticeShown,
} from "./factors";
export { registrationOptions, addPasskey, authenticationOptions, verifyPasskey, type Site } from "./passkeys";
export { replaceRecoveryCodes, spendRecoveryCode, recoveryCodesLeft, RECOVERY_CODE_COUNT } from "./recovery";
export { issueProof, redeemProof } from "./tickets";
export { verifyFactor } from "./verify";
export { totpCode, verifyTotp } from "./totp";
