// The response check of e2e/support/test.ts catches a planted secret: in a response the browser sees and
// in one an API client gets. The plants never touch the app (a routed response and a local server).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { secretsOfThisRun } from "./support/secrets";
import { expect, test } from "./support/test";

test("[secrets][self-test] a secret planted in a browser response (body or header, any encoding) fails the check", async ({
  page,
  secretScan,
}) => {
  // The real app first: its login page is seen and clean.
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  expect(await secretScan.take()).toEqual([]);
  expect(secretScan.tally().pageResponses).toBeGreaterThan(3);

  const { PLATFORM_API_SECRET, NEXTAUTH_SECRET } = secretsOfThisRun();
  await page.route("**/planted-leak", (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html",
      headers: { "x-debug": Buffer.from(`session:${NEXTAUTH_SECRET}`).toString("base64") },
      body: `<p>${PLATFORM_API_SECRET}</p>`,
    }),
  );
  await page.goto("/planted-leak");
  const found = await secretScan.take();
  expect(found.map((f) => `${f.secret} ${f.where.split(" of ")[0]}`).sort()).toEqual(
    expect.arrayContaining(["NEXTAUTH_SECRET headers", "PLATFORM_API_SECRET body"]),
  );
});

test("[secrets][self-test] a secret planted in an API client's response fails the check", async ({
  request,
  playwright,
  secretScan,
}) => {
  const { PLATFORM_API_PASSPHRASE } = secretsOfThisRun();
  const server: Server = createServer((_req, res) => {
    res
      .writeHead(200, {
        "set-cookie": `p=${encodeURIComponent(PLATFORM_API_PASSPHRASE)}; Path=/`,
        "content-type": "application/json",
      })
      .end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/leak`;
    // The fixture's request, page.request and a context made in the test all go through the check.
    expect((await request.get(url)).status()).toBe(200);
    const other = await playwright.request.newContext();
    expect((await other.post(url, { data: {} })).status()).toBe(200);
    await other.dispose();
    const found = await secretScan.take();
    expect(
      found
        .filter((f) => f.secret === "PLATFORM_API_PASSPHRASE" && f.where.startsWith("headers of"))
        .map((f) => f.where.split(" ")[2]),
    ).toEqual(["GET", "POST"]);
    expect(
      found.every((f) => f.encoding === "url-encoded"),
      "the cookie holds the encoded form only",
    ).toBe(true);
  } finally {
    server.close();
  }
});
