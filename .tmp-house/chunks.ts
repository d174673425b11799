import { gzipSync } from "node:zlib";
import { DEMO, signIn, startApp } from "@/scripts/bench/support";

const app = await startApp(1);
try {
  const cookie = await signIn(app.baseUrl, DEMO.compliance);
  const admin = await signIn(app.baseUrl, DEMO.admin);
  const sizes = new Map<string, number>();
  const of = async (page: string, c: string) => {
    const html = await (await fetch(`${app.baseUrl}${page}`, { headers: { Cookie: c } })).text();
    const noModule = new Set([...html.matchAll(/<script[^>]*src="([^"]+)"[^>]*noModule/gi)].map((m) => m[1]));
    const all = [...new Set([...html.matchAll(/\/_next\/static\/[^"'\s\\)]+?\.js/g)].map((m) => m[0]))].filter((s) => !noModule.has(s));
    for (const s of all) if (!sizes.has(s)) sizes.set(s, gzipSync(Buffer.from(await (await fetch(`${app.baseUrl}${s}`)).arrayBuffer())).length);
    return all;
  };
  const base = new Set(await of("/sub-accounts", cookie));
  for (const [p, c] of [["/risk-units", cookie], ["/admin/users", admin], ["/sub-accounts", cookie]] as const) {
    const list = await of(p, c);
    console.log(p, (list.reduce((a, s) => a + sizes.get(s)!, 0) / 1024).toFixed(1));
    for (const s of list) console.log("  ", base.has(s) ? " " : "+", (sizes.get(s)! / 1024).toFixed(1), s);
  }
} finally {
  await app.stop();
}
