// GET /api/openapi.json: the OpenAPI 3.1 description generated from lib/api, for signed-in staff only.
import { expect, test } from "./support/test";
import { signInApi } from "./support/staff";

test("[openapi.get][read] any signed-in staff reads the description of every route, generated from the entries", async ({
  request,
}) => {
  const anonymous = await request.get("/api/openapi.json");
  expect(anonymous.status()).toBe(401);

  await signInApi(request, "compliance");
  const res = await request.get("/api/openapi.json");
  expect(res.status(), await res.text()).toBe(200);
  const doc = (await res.json()) as {
    openapi: string;
    info: { version: string };
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.paths["/api/withdrawals/{id}/approve"]?.post?.operationId).toBe("withdrawals.approve");
  expect(doc.paths["/api/platform/v2/mix/account/set-leverage"]?.post?.operationId).toBe("platform.leverage.set");
  expect(doc.paths["/api/openapi.json"]?.get?.operationId).toBe("openapi.get");
});
