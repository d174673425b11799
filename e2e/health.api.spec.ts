import { expect, test } from "./support/test";

test("[health][read] reports simulator mode, the version, a reachable platform and a reachable database", async ({
  request,
}) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as {
    status: string;
    mode: string;
    version: string;
    platform: { reachable: boolean };
    database: { reachable: boolean; code: string | null };
  };
  expect(body.mode).toBe("simulator");
  expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  expect(body.platform.reachable).toBe(true);
  expect(body.database).toMatchObject({ reachable: true, code: null });
  expect(body.status).toBe("ok");
});
