/**
 * Opens (creating, migrating and, on a fresh embedded database, filling) the
 * application's database when the server starts, so the first request does
 * not pay for it and a broken database shows at once in the server log.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getAppDatabase } = await import("@/lib/runtime/database");
  try {
    const database = await getAppDatabase();
    console.log(`[db] ${database.kind === "pglite" ? "embedded PGlite database ready" : "PostgreSQL ready"}`);
  } catch (error) {
    console.error(`[db] could not open the database: ${(error as Error).message}`);
  }
}
