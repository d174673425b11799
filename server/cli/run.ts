import "server-only";
// How a command of server/cli ends: with the exit code its main returns (0 when it returns none), or, when main
// throws, "<what> failed: <message>" on stderr and exit 1; an error the command expects (`refusal`, e.g. a
// restore over a database that holds data) says "refused" instead and exits with its own code.
export function runCli(
  what: string,
  main: () => Promise<number | void>,
  refusal?: { is: (e: unknown) => boolean; code: number },
): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (e: unknown) => {
      const refused = refusal?.is(e) ?? false;
      console.error(`${what} ${refused ? "refused" : "failed"}: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(refused ? refusal!.code : 1);
    },
  );
}
