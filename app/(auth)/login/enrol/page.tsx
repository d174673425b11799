import type { Metadata } from "next";
import { EnrolView } from "../_components/enrol-view";
import { loginStepPage } from "../_components/login-step-page";

export const metadata: Metadata = { title: "Add a second factor" };
export const dynamic = "force-dynamic";

/** First sign-in of a role that must have a second factor (MFA_REQUIRED_ROLES): enrol one before anything else. */
export default loginStepPage("enrol", EnrolView);
