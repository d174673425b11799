import "server-only";
// What start-up is in Next's edge runtime, where Brokerdesk runs nothing: package.json's "#startup" import
// resolves here there (condition "edge-light"), so the edge bundle of instrumentation.ts leaves out the
// database and the simulator, which need Node.js.
export async function startApp(): Promise<void> {}
