/**
 * Opens (creating, migrating and, on a fresh embedded database, filling) the
 * application's database when the server starts, so the first request does
 * not pay for it and a broken database shows at once in the server log. Then
 * starts the hourly housekeeping: client addresses of API requests are erased
 * after 30 days.
 */
const HOUSEKEEPING_MS = 3600_000;

export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getAppDatabase } = await import("@/lib/runtime/database");
  const { eraseOldClientAddresses } = await import("@/lib/usage/events");
  try {
    const database = await getAppDatabase();
    console.log(`[db] ${database.kind === "pglite" ? "embedded PGlite database ready" : "PostgreSQL ready"}`);
  } catch (error) {
    console.error(`[db] could not open the database: ${(error as Error).message}`);
  }
  const housekeeping = async () => {
    try {
      const erased = await eraseOldClientAddresses((await getAppDatabase()).prisma);
      if (erased > 0) console.log(`[usage] erased the client address of ${erased} request(s) older than 30 days`);
    } catch (error) {
      console.error(`[usage] housekeeping failed: ${(error as Error).message}`);
    }
  };
  void housekeeping();
  setInterval(() => void housekeeping(), HOUSEKEEPING_MS).unref();
}
