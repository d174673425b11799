import { signInApi } from "./support/staff";
import { test } from "./support/test";

// The first sign-in of a fresh server opens its embedded database and prepares the demo staff, which takes
// longer than a sign-in through the UI waits. It is done once here; the api and ui projects depend on this
// one (playwright.config.ts), so no spec needs a warm-up of its own.
test("[setup] the first sign-in of the fresh server opens its database", async ({ request }) => {
  test.setTimeout(120_000);
  await signInApi(request, "broker");
});
