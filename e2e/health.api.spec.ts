import { expect, test } from "./support/test";

test("[health][read] reports simulator mode, the version and a reachable platform", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as {
    status: string;
    mode: string;
    version: string;
    platform: { reachable: boolean };
  };
  expect(body.mode).toBe("simulator");
  expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  expect(body.platform.reachable).toBe(true);
  expect(body.status).toBe("ok");
});
