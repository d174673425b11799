import "server-only";
import { platformErrorMessage, type KnownPlatformCode } from "@/lib/platform/protocol";

/**
 * Codes the simulator defines itself, where the platform's own code is not known (README "Error codes").
 * They follow the platform's envelope and HTTP 400, so a client treats them like any other refusal.
 */
export const SIM_ERRORS = {
  "40404": "Request URL NOT FOUND",
  "49001": "The uid is already bound to another risk unit",
  "49002": "The risk unit already has the maximum of 50 UIDs",
  "49003": "The uid is not bound to this risk unit",
  "49004": "The uid has a balance and the risk unit has outstanding loans",
} as const;
export type SimOwnCode = keyof typeof SIM_ERRORS;

/** A refusal the simulator answers with the platform's error envelope. */
export class SimError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus = 400,
  ) {
    super(message);
    this.name = "SimError";
  }

  static platform(code: KnownPlatformCode, param?: string, httpStatus = 400): SimError {
    return new SimError(code, platformErrorMessage(code, param), httpStatus);
  }

  static own(code: SimOwnCode, httpStatus = 400): SimError {
    return new SimError(code, SIM_ERRORS[code], httpStatus);
  }

  static missing(param: string): SimError {
    return SimError.platform("40019", param);
  }

  static invalid(param: string): SimError {
    return SimError.platform("40020", param);
  }
}

// Key order is part of the contract: code, msg, requestTime, data.
export function successBody(requestTime: number, data: unknown): string {
  return JSON.stringify({ code: "00000", msg: "success", requestTime, data });
}

export function errorBody(requestTime: number, code: string, msg: string): string {
  return JSON.stringify({ code, msg, requestTime, data: null });
}
