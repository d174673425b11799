// public/: the app's icons and the manifest for pinning it, served to anyone (the
// sign-in page needs them too) and linked from every page's head.
import { expect, test } from "./support/test";

test("[public] favicon, icons and manifest are served and linked from the sign-in page", async ({ request }) => {
  const favicon = await request.get("/favicon.ico");
  expect(favicon.status()).toBe(200);
  expect((await favicon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));

  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  const m = (await manifest.json()) as {
    name: string;
    start_url: string;
    icons: { src: string; sizes: string; type: string }[];
  };
  expect(m).toMatchObject({ name: "Brokerdesk", start_url: "/" });
  for (const icon of m.icons) {
    const res = await request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()["content-type"], icon.src).toContain(icon.type);
  }
  const apple = await request.get("/apple-touch-icon.png");
  expect(apple.status()).toBe(200);
  expect(apple.headers()["content-type"]).toContain("image/png");

  const html = await (await request.get("/login")).text();
  expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
  expect(html).toMatch(/<link rel="icon" href="\/favicon\.ico(\?[^"]*)?" sizes="32x32"/);
  expect(html).toMatch(/<link rel="apple-touch-icon" href="\/apple-touch-icon\.png(\?[^"]*)?" sizes="180x180"/);
});
