import "server-only";
// `npm run platform -- <operation id> [name=value ...] [--key NAME]`: one call through the same catalog
// and client as the app; prints the platform's envelope as JSON. Exit 1 on failure, with code and message.
import { OPERATION_IDS, isOperationId } from "@/lib/platform/catalog";
import { getPlatform } from "@/server/platform/runtime";
import { startPlatform } from "@/server/startup";
import { PlatformCallError, PlatformError, PlatformRequestInvalidError } from "@/server/platform/errors";

function usage(): never {
  console.error(
    `usage: npm run platform -- <operation> [name=value ...] [--key NAME]\noperations: ${OPERATION_IDS.join(", ")}`,
  );
  process.exit(2);
}

async function main(argv: string[]): Promise<number> {
  const [id, ...rest] = argv;
  if (!id || !isOperationId(id)) usage();
  const params: Record<string, string> = {};
  let key: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === "--key") key = rest[++i];
    else if (arg.includes("=")) {
      const at = arg.indexOf("=");
      params[arg.slice(0, at)] = arg.slice(at + 1);
    } else usage();
  }
  try {
    // Simulator mode without SIMULATOR_URL: a simulator of its own in this process, as the app starts one.
    await startPlatform();
    const { client } = await getPlatform();
    const { envelope } = await client.call(id, params as never, { key });
    console.log(JSON.stringify(envelope, null, 2));
    return 0;
  } catch (e) {
    if (e instanceof PlatformError) console.error(`error ${e.code}: ${e.msg} (HTTP ${e.httpStatus}, ${e.operationId})`);
    else if (e instanceof PlatformRequestInvalidError) {
      for (const [field, msgs] of Object.entries(e.fieldErrors)) console.error(`invalid ${field}: ${msgs.join("; ")}`);
    } else if (e instanceof PlatformCallError) console.error(`error ${e.kind}: ${e.message}`);
    else console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
