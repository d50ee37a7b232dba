/**
 * Opens (creating, migrating and, on a fresh embedded database, filling) the
 * application's database when the server starts, so the first request does
 * not pay for it and a broken database shows at once in the server log. Then
 * starts the hourly housekeeping: client addresses of API requests are erased
 * after 30 days. And every NOTIFY_INTERVAL_MS (2 s) the alerts are evaluated
 * and due webhook and email deliveries sent (every instance may run this:
 * rules fire once, deliveries are claimed once). And, with payments set up,
 * the auto-recharge sweep (lib/billing/auto-recharge.ts).
 */
const HOUSEKEEPING_MS = 3600_000;
const NOTIFY_INTERVAL_MS = Number(process.env.NOTIFY_INTERVAL_MS ?? 2000);

export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getAppDatabase } = await import("@/lib/runtime/database");
  const { eraseOldClientAddresses } = await import("@/lib/usage/events");
  try {
    const database = await getAppDatabase();
    console.log(`[db] ${database.kind === "pglite" ? "embedded PGlite database ready" : "PostgreSQL ready"}`);
    if (process.env.DEV_CONSOLE_HINT) {
      const { consoleHint } = await import("@/lib/platform/admin/dev-hint");
      console.log(await consoleHint(database.prisma, process.env.PORT ?? "3000"));
    }
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

  const { evaluateAlerts } = await import("@/lib/notify/alerts");
  const { deliverDue } = await import("@/lib/notify/delivery");
  let notifying = false;
  const notify = async () => {
    if (notifying) return; // a slow run is not overtaken by the next
    notifying = true;
    try {
      const { prisma } = await getAppDatabase();
      await evaluateAlerts(prisma);
      await deliverDue(prisma);
    } catch (error) {
      console.error(`[notify] ${(error as Error).message}`);
    } finally {
      notifying = false;
    }
  };
  if (NOTIFY_INTERVAL_MS > 0) setInterval(() => void notify(), NOTIFY_INTERVAL_MS).unref();

  // Auto-recharge: every AUTO_RECHARGE_INTERVAL_MS (5 s), when payments are set up. Every instance may
  // sweep: an attempt row is unique per organization, day and number, so a recharge starts once.
  const { billingConfig, getStripe } = await import("@/lib/billing/stripe");
  const billing = billingConfig();
  if (billing.configured) {
    const { autoRechargeIntervalMs, runAutoRecharge } = await import("@/lib/billing/auto-recharge");
    let sweeping = false;
    const sweep = async () => {
      if (sweeping) return;
      sweeping = true;
      try {
        await runAutoRecharge((await getAppDatabase()).prisma, getStripe(billing));
      } catch (error) {
        console.error(`[billing] auto-recharge sweep failed: ${(error as Error).message}`);
      } finally {
        sweeping = false;
      }
    };
    setInterval(() => void sweep(), autoRechargeIntervalMs()).unref();
  }
}
