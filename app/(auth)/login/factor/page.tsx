import type { Metadata } from "next";
import { FactorView } from "../_components/factor-view";
import { loginStepPage } from "../_components/login-step-page";

export const metadata: Metadata = { title: "Second factor" };
export const dynamic = "force-dynamic";

/** After a right password: the account has a second factor, and this session has not shown one yet. */
export default loginStepPage("factor", FactorView);
